/** A message shown to the buyer: toasts (persistent until dismissed) and step notices. */
export type NoticeKind = 'error' | 'warning' | 'success' | 'info';

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
}
