import { isLosslessNumber } from 'lossless-json';
import { exactNumbers, parseExactJson } from './json.js';

/**
 * The wire form of an exactly parsed value, for the trip from the JSON thread to the event loop:
 * plain JSON text, which native `JSON.parse` reads at about 10 ms per MiB (lossless-json: about
 * 100 ms), and the exact text of every number that native JSON would change (3.0, -0, 1E5,
 * integers beyond 2^53): in `json` such a number is written as 0, its ordinal among the value's
 * numbers (in the order `Object.entries` and a walk of the parsed wire both visit them) is in
 * `exceptional`, its text in `texts` (comma-separated, in the same order). Every other number's
 * text is `String(Number(text))`, so it stays a plain number: written back (`exactJson`) it is
 * the same text, and an array of them is one object for the garbage collector (a LosslessNumber
 * apiece made 300 000 numbers cost the event loop collection pauses of up to 60-250 ms). (A
 * structured clone of the parsed value costs the event loop more than parsing it: about 200 ms for
 * 512 Ki numbers, measured.)
 */
export interface ExactJsonWire {
  json: string;
  exceptional: Int32Array;
  texts: string;
}

/** Parses `text` as parseExactJson does (the same errors) and gives its wire form. Done in the JSON thread. */
export function exactJsonWire(text: string): ExactJsonWire {
  let ordinal = 0;
  const exceptional: number[] = [];
  const texts: string[] = [];
  const write = (value: unknown): string => {
    if (typeof value === 'number') {
      ordinal += 1;
      return String(value);
    }
    if (isLosslessNumber(value)) {
      exceptional.push(ordinal);
      texts.push(value.value);
      ordinal += 1;
      return '0';
    }
    if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
    if (typeof value === 'object' && value !== null) {
      return `{${Object.entries(value)
        .map(([key, item]) => `${JSON.stringify(key)}:${write(item)}`)
        .join(',')}}`;
    }
    return JSON.stringify(value);
  };
  const json = write(parseExactJson(text));
  return { json, exceptional: Int32Array.from(exceptional), texts: texts.join(',') };
}

/** A slice of rebuilding holds the event loop at most about this long before it yields. */
const SLICE_MS = 8;
/** How many values are rebuilt between two looks at the clock. */
const CHECK_EVERY = 2048;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Pending {
  container: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  next: number;
}

/**
 * The value of a wire form, as parseExactJson gives it: native `JSON.parse`, then every number
 * whose text native JSON changed turned back into a LosslessNumber with its exact text, in place,
 * a few milliseconds at a time (without recursion: the nesting may be deeper than this thread's
 * stack).
 */
export async function fromExactJsonWire({ json, exceptional, texts }: ExactJsonWire): Promise<unknown> {
  const parsed: unknown = JSON.parse(json);
  // what follows the parse (the rebuild, or the route's validation and the job's encoding) is a step of its own
  await yieldToLoop();
  if (exceptional.length === 0) return parsed;
  const root: Record<string, unknown> = { value: parsed };
  const stack: Pending[] = [{ container: root, keys: ['value'], next: 0 }];
  let ordinal = 0;
  let nextExceptional = 0;
  let textAt = 0;
  const exactNumber = exactNumbers();
  const nextText = (): string => {
    nextExceptional += 1;
    const end = texts.indexOf(',', textAt);
    const text = texts.slice(textAt, end < 0 ? undefined : end);
    textAt = end + 1;
    return text;
  };
  let sliceStart = performance.now();
  let sinceCheck = 0;
  while (stack.length > 0) {
    const pending = stack[stack.length - 1];
    const { container, keys } = pending;
    if (pending.next >= (keys ?? (container as unknown[])).length) {
      stack.pop();
      continue;
    }
    const key = keys ? keys[pending.next] : pending.next;
    pending.next += 1;
    const slots = container as Record<string | number, unknown>;
    const item = slots[key];
    if (typeof item === 'number') {
      // an own "__proto__" key (JSON.parse makes one) is a plain data property: assigning it is safe
      if (exceptional[nextExceptional] === ordinal) slots[key] = exactNumber(nextText());
      ordinal += 1;
      if (nextExceptional >= exceptional.length) break;
    } else if (typeof item === 'object' && item !== null) {
      stack.push({
        container: item as Record<string, unknown> | unknown[],
        keys: Array.isArray(item) ? undefined : Object.keys(item),
        next: 0,
      });
    }
    sinceCheck += 1;
    if (sinceCheck >= CHECK_EVERY) {
      sinceCheck = 0;
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
  }
  return root.value;
}
