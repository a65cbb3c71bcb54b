/** The order-completed screen's words (spec 001 §2 "Order completed", "Find a place to stay", §4, §8, §9). */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const ORDER_COMPLETED_MESSAGES = Object.assign(
  messages({
    feedbackSent: 'completed.feedbackSent',
    feedbackFailed: 'completed.feedbackFailed',
    subscribed: 'completed.subscribed',
    subscribeFailed: 'completed.subscribeFailed',
    subscribeLink: 'completed.subscribeLink',
    feedbackTitle: 'completed.feedbackTitle',
    copy: 'completed.copy',
    copied: 'completed.copied',
    shareWithFriends: 'completed.shareWithFriends',
    browseMoreEvents: 'completed.browseMoreEvents',
  }),
  {
    /** The share tile: with a reward for every event, its short text. */
    shareWithReward: (shortRewardText: string) => t('completed.shareWithReward', { shortRewardText }),
    findAPlaceNear: (title: string) => t('completed.findAPlaceNear', { title }),
    /** The share text without a reward; the spec's "the product" is our brand name. */
    shareText: (brand: string, title: string, shareableLink: string) =>
      t('completed.shareText', { brand, title, shareableLink }),
    /** With a reward, the reward text followed by the referrer link. */
    rewardShareText: (rewardText: string, referrerLink: string) => `${rewardText} ${referrerLink}`,
  },
);
