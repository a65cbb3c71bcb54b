/**
 * The script tags of one of the client build's own small entries (an HTML file of dist/client
 * whose script the server puts into a page it renders itself): the queue page's and the event
 * page's order form. Before a build there are none, and the page works without them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Html } from './html.ts';

const TAGS = /<(script|link)\b[^>]*(src|href)="\/assets\/[^"]+"[^>]*>(<\/script>)?/g;

export function builtScripts(staticDir: string, entryHtml: string): Html {
  try {
    const built = readFileSync(path.join(staticDir, entryHtml), 'utf8');
    return new Html((built.match(TAGS) ?? []).join(''));
  } catch {
    return new Html('');
  }
}
