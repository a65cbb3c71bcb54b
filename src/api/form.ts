/**
 * Form-urlencoded bodies with nested keys in bracket notation (`ticket[1|2|3|0][qty]=2`,
 * `seats[0][row]=A`), the encoding the specification's calls use. Written out here rather than
 * pulled from a query-string library, which would weigh more than the rest of the HTTP client.
 */
export function toFormBody(value: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (key: string, item: unknown): void => {
    if (item === undefined) return;
    if (item === null) params.append(key, '');
    else if (Array.isArray(item)) item.forEach((inner, index) => add(`${key}[${index}]`, inner));
    else if (typeof item === 'object') for (const [k, inner] of Object.entries(item)) add(`${key}[${k}]`, inner);
    else params.append(key, String(item));
  };
  for (const [key, item] of Object.entries(value)) add(key, item);
  return params.toString();
}
