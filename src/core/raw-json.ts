import { parseExactJson } from '../web/json.js';

/**
 * A returned value kept as its JSON text (numbers exact), as read off the event loop: the response
 * writes the text as it is, and comparing it happens in the JSON worker. Code that serialises it
 * without knowing it (exactJson) gets the parsed value, parsed then, on its own thread.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return parseExactJson(this.text);
  }
}
