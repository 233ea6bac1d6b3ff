/**
 * The obvious encodings of a secret value, as text a model, tool or error could hold it in.
 * Each comes with the name of the encoding, so a redaction can say what it found.
 *
 * - `base64`: standard and URL-safe alphabets, padded and unpadded, of the value alone; and,
 *   for the value *inside* a longer base64 text (`base64("token=" + key)`), the characters that
 *   depend on the value alone at each of the 3 byte alignments (the first and last one or two
 *   characters, which mix in neighbouring bytes, are not part of it);
 * - `hex`: lower and upper case;
 * - `url`: percent-encoded (`encodeURIComponent`, upper- and lower-case escapes, form encoding
 *   with `+` for spaces) and every byte percent-escaped;
 * - `reversed`; `json`: the value as written inside a JSON string (escapes).
 *
 * Not covered (see docs/operations.md): other encodings (base32, rot13, gzip, ...), the value
 * split across messages or interleaved with other characters, case changes other than hex, and
 * parts of a value.
 *
 * @example
 * secretEncodings('sk-live-1234567890').find((e) => e.encoding === 'hex')?.text; // '736b2d6c6976652d31323334353637383930'
 */
export function secretEncodings(value: string): { text: string; encoding: string }[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: { text: string; encoding: string }[] = [{ text: value, encoding: 'exact' }];
  const add = (text: string, encoding: string) => {
    if (text.length > 0 && !out.some((e) => e.text === text)) out.push({ text, encoding });
  };
  const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
  const padded = bytes.toString('base64');
  for (const text of [padded, padded.replace(/=+$/, ''), urlSafe(padded), urlSafe(padded).replace(/=+$/, '')]) add(text, 'base64');
  for (const offset of [0, 1, 2]) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = shifted.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    add(core, 'base64');
    add(urlSafe(core), 'base64');
  }
  const hex = bytes.toString('hex');
  add(hex, 'hex');
  add(hex.toUpperCase(), 'hex');
  const uri = encodeURIComponent(value);
  add(uri, 'url');
  add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), 'url');
  add(uri.replace(/%20/g, '+'), 'url');
  add(hex.replace(/../g, (b) => `%${b.toUpperCase()}`), 'url');
  add(hex.replace(/../g, (b) => `%${b}`), 'url');
  add([...value].reverse().join(''), 'reversed');
  add(JSON.stringify(value).slice(1, -1), 'json');
  return out;
}
