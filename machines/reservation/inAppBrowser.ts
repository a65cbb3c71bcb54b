/**
 * In-app browsers of social apps (spec 000 §2, Reserve step) open the checkout in a web view that
 * may lose the session or block payment pages, so the buyer is asked to open it in a real browser.
 */
const IN_APP_BROWSER_MARKERS = [
  /FBAN|FBAV|FB_IAB|FBIOS|FB4A/i, // Facebook, Messenger
  /Instagram/i,
  /musical_ly|BytedanceWebview|TikTok/i,
  /Snapchat/i,
  /LinkedInApp/i,
  /\bLine\//i,
  /MicroMessenger/i, // WeChat
];

export function isInAppBrowserUserAgent(userAgent: string): boolean {
  return IN_APP_BROWSER_MARKERS.some((marker) => marker.test(userAgent));
}
