/** The order-completed screen's words (spec 001 §2 "Order completed", "Find a place to stay", §4, §8, §9). */
export const ORDER_COMPLETED_MESSAGES = {
  feedbackSent: 'Your feedback has been sent. Thanks!',
  feedbackFailed: 'Unable to send feedback. Please try again',
  subscribed: 'You have been subscribed to important event updates',
  subscribeFailed: 'Unable to add to subscription. Please try again later',
  subscribeLink: 'Subscribe to important updates',
  feedbackTitle: 'How did we do?',
  copy: 'Copy',
  copied: 'Copied',
  /** The share tile: with a reward for every event, its short text. */
  shareWithReward: (shortRewardText: string) => `Share & ${shortRewardText}`,
  shareWithFriends: 'Share with friends & family',
  browseMoreEvents: 'Browse more events',
  findAPlaceNear: (title: string) => `Find a place to stay near the ${title} event`,
  /** The share text without a reward; the spec's "the product" is our brand name. */
  shareText: (brand: string, title: string, shareableLink: string) => `I bought tickets with ${brand} for ${title} (${shareableLink})`,
  /** With a reward, the reward text followed by the referrer link. */
  rewardShareText: (rewardText: string, referrerLink: string) => `${rewardText} ${referrerLink}`,
} as const;
