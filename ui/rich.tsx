import { Fragment, type ReactNode } from 'react';
import { t, type MessageKey, type Values } from '../i18n/runtime.ts';

/**
 * A message with parts that are elements: the catalogue writes them as tags (`Already bought
 * them? <a>Sign in</a> so we can find them.`) and the screen says what each tag draws, so a
 * translation can move the link within its sentence.
 */
export function rich(key: MessageKey, values: Values, tags: Record<string, (chunk: string) => ReactNode>): ReactNode[] {
  const text = t(key, values);
  const out: ReactNode[] = [];
  const tag = /<(\w+)>([\s\S]*?)<\/\1>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const draw = tags[match[1]!];
    out.push(<Fragment key={match.index}>{draw ? draw(match[2]!) : match[2]}</Fragment>);
    last = tag.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
