/**
 * How much of a growing text may be shown now without showing any part of a known secret: the
 * text up to where a secret could still be starting. WHY: an answer that streams is shown
 * before it is whole, and a secret can arrive split across two chunks — redacting the text so
 * far blanks every secret that is complete in it, but the first half of one at its end is not
 * yet a secret to the redactor. So the tail that could be the beginning of a secret (in any
 * spelling the redactor knows) is held back until the next chunk says whether it is one, and a
 * complete secret that crosses that point moves the cut before it.
 */

/** What the redactor knows: the literal spellings (exact and encodings) and the values it also finds spelled in JSON escapes or percent-encoding. */
export interface SecretSpellings {
  needles: readonly string[];
  values: readonly string[];
  /** Every complete match of any spelling in a text, as [start, end) spans. */
  spans(text: string): Array<[number, number]>;
}

/**
 * The length of the prefix of `text` that can be redacted and shown now: everything before the
 * earliest place a known secret could be starting (a partial spelling at the text's end) and
 * before any complete spelling that crosses that place.
 *
 * @example
 * safePrefixLength('the key is sk-li', spellings); // 11 ('sk-li' may be the start of sk-live-…)
 */
export function safePrefixLength(text: string, s: SecretSpellings): number {
  let cut = text.length;
  // A spelling is at most 6 characters per UTF-16 unit of its value (`\uXXXX`; a 4-byte character is 12 as %XX, over 2 units).
  const longest = Math.max(0, ...s.needles.map((n) => n.length), ...s.values.map((v) => 6 * v.length));
  for (let i = Math.max(0, text.length - longest); i < cut; i++) {
    if (partialAt(text, i, s)) {
      cut = i;
      break;
    }
  }
  for (let moved = true; moved; ) {
    moved = false;
    for (const [start, end] of s.spans(text)) {
      if (start < cut && cut < end) {
        cut = start;
        moved = true;
      }
    }
  }
  return cut;
}

/** Whether text[i..] (to its end) is a proper beginning of some spelling of a secret. */
function partialAt(text: string, i: number, s: SecretSpellings): boolean {
  const rest = text.length - i;
  for (const needle of s.needles) if (needle.length > rest && needle[0] === text[i] && needle.startsWith(text.slice(i))) return true;
  return s.values.some((value) => spelledPrefix(text, i, jsonForms(value)) || spelledPrefix(text, i, urlForms(value)));
}

/** A form of one character: literal text, or hex digits compared without case (`\u00e9`, `%C3`). */
type Form = string;

/**
 * Whether text[i..] is a proper beginning of the value spelled one character at a time, each in
 * one of its forms (a form is compared with hex digits in either case).
 */
function spelledPrefix(text: string, i: number, forms: Form[][]): boolean {
  let k = i;
  for (const choices of forms) {
    if (k === text.length) return true;
    let next = -1;
    for (const form of choices) {
      const piece = text.slice(k, k + form.length);
      if (piece.length === form.length ? sameForm(piece, form) : sameForm(piece, form.slice(0, piece.length))) {
        if (piece.length < form.length) return true; // the text ends inside this form
        next = k + form.length;
        break;
      }
    }
    if (next < 0) return false;
    k = next;
  }
  return false; // the whole value is there: a complete spelling, which redaction blanks
}

function sameForm(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase() && (a === b || /^(?:\\u|%)/i.test(b));
}

/** Each UTF-16 unit of `value` as a JSON string may write it. */
function jsonForms(value: string): Form[][] {
  const out: Form[][] = [];
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const ch = value[i]!;
    const forms: Form[] = [`\\u${unit.toString(16).padStart(4, '0')}`];
    if (ch === '"' || ch === '\\') forms.push(`\\${ch}`);
    else if (unit >= 0x20) forms.push(ch);
    if (ch === '/') forms.push('\\/');
    const short = ({ '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' } as Record<string, string>)[ch];
    if (short) forms.push(`\\${short}`);
    out.push(forms);
  }
  return out;
}

/** Each character of `value` as a URL may write it: itself, or its UTF-8 bytes percent-escaped (a space also as '+'). */
function urlForms(value: string): Form[][] {
  return Array.from(value, (ch) => {
    const escaped = [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    return ch === ' ' ? [escaped, ch, '+'] : [escaped, ch];
  });
}
