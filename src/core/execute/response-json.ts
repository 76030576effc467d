import type { CaseResult } from '../result-schema.js';
import { exactJson } from '../../web/json.js';
import { rawActualText } from './collect-results.js';
import { Slicer } from './slices.js';

/** A member `"key":value`, left out when the value is undefined (as JSON.stringify leaves it out). */
function member(key: string, json: string | undefined): string {
  return json === undefined ? '' : `${JSON.stringify(key)}:${json}`;
}

function valueJson(value: unknown): string | undefined {
  return value === undefined ? undefined : exactJson(value);
}

function resultJson(result: CaseResult): string {
  const members = [
    member('input', valueJson(result.input)),
    member('expected', valueJson(result.expected)),
    // a large value is copied as the JSON worker wrote it, never parsed or serialised here
    member('actual', rawActualText(result) ?? valueJson(result.actual)),
    member('passed', JSON.stringify(result.passed)),
    member('runtime', JSON.stringify(result.runtime)),
    member('stdout', JSON.stringify(result.stdout)),
    member('error', JSON.stringify(result.error)),
  ];
  return `{${members.filter(Boolean).join(',')}}`;
}

/**
 * The execute response's body, `{"error":…,"results":[…]}` (error only when set), as exactJson
 * writes it, built a result at a time in slices of the event loop. Its size is the results' budget
 * plus the echoed inputs and expected values, which are as large as the request at most.
 */
export async function executionJson(results: CaseResult[], error?: string): Promise<string> {
  const slicer = new Slicer();
  const items: string[] = [];
  for (const result of results) {
    await slicer.pause();
    items.push(resultJson(result));
  }
  const head = error === undefined ? '' : `${member('error', JSON.stringify(error))},`;
  return `{${head}"results":[${items.join(',')}]}`;
}
