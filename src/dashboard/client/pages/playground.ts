import { api, ApiError } from '../kit/api.js';
import { h } from '../kit/dom.js';
import { form } from '../kit/form.js';
import { page } from '../kit/router.js';
import { table } from '../kit/table.js';

interface Language {
  language: string;
  version: string;
}

interface CaseResult {
  input: unknown;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  runtime: string;
  stdout: string;
  error: string | null;
}

const EXAMPLE_CODE = 'def add(a, b):\n    return a + b\n';
const EXAMPLE_CASES = '[\n  {"args": {"a": 1, "b": 2}, "expected": 3},\n  {"args": {"a": 2, "b": 2}, "expected": 5}\n]';

const json = (value: unknown) => h('code', null, JSON.stringify(value));

function results(rows: CaseResult[]): HTMLElement {
  const passed = rows.filter((row) => row.passed).length;
  return h(
    'div',
    null,
    h('p', { class: passed === rows.length ? 'ok' : 'warning' }, `${passed} of ${rows.length} cases passed.`),
    table<CaseResult & { n: number }>(
      [
        { label: 'Case', cell: (row) => row.n },
        {
          label: 'Result',
          cell: (row) =>
            h('span', { class: row.passed ? 'status status-delivered' : 'status status-failed' }, row.passed ? 'passed' : 'failed'),
        },
        { label: 'Input', cell: (row) => json(row.input) },
        { label: 'Expected', cell: (row) => json(row.expected) },
        { label: 'Actual', cell: (row) => json(row.actual) },
        { label: 'Runtime', cell: (row) => row.runtime },
        { label: 'Output', cell: (row) => (row.stdout ? h('pre', null, row.stdout) : '') },
        { label: 'Error', cell: (row) => row.error ?? '' },
      ],
      rows.map((row, index) => ({ ...row, n: index + 1 })),
      'No cases ran.',
    ),
  );
}

page(
  '/playground',
  async () => {
    const { data: languages } = await api<{ data: Language[] }>('GET', '/code/languages');
    const output = h('div', { id: 'playground-results', 'aria-live': 'polite' });
    const run = form(
      [
        {
          name: 'language',
          label: 'Language',
          type: 'select',
          required: true,
          options: languages.map((language) => ({ value: language.language, label: `${language.language} (${language.version})` })),
        },
        {
          name: 'functionName',
          label: 'Function name',
          type: 'text',
          hint: 'Optional: the function to call when the code defines several',
        },
        { name: 'code', label: 'Code', type: 'textarea', required: true, value: EXAMPLE_CODE },
        {
          name: 'testCases',
          label: 'Test cases',
          type: 'json',
          required: true,
          value: EXAMPLE_CASES,
          hint: 'A JSON array of {"args": {…}, "expected": …}',
        },
      ],
      'Run',
      async (values) => {
        output.replaceChildren(h('p', null, 'Running…'));
        const functionName = String(values.functionName).trim();
        const body = {
          language: values.language,
          code: values.code,
          testCases: JSON.parse(String(values.testCases)) as unknown,
          ...(functionName ? { functionName } : {}),
        };
        try {
          const answer = await api<{ results: CaseResult[] }>('POST', '/code/execute', body);
          output.replaceChildren(results(answer.results));
        } catch (error) {
          output.replaceChildren();
          throw error instanceof ApiError ? error : new Error(String(error));
        }
      },
    );
    return h(
      'section',
      null,
      h('h1', null, 'Runner playground'),
      h('p', null, 'Runs a function against test cases in a sandbox, through the same POST /api/v1/code/execute as any client.'),
      run,
      h('h2', null, 'Results'),
      output,
    );
  },
  { title: 'Playground' },
);
