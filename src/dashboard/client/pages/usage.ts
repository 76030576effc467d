import { api } from '../kit/api.js';
import { h } from '../kit/dom.js';
import { page } from '../kit/router.js';
import { table } from '../kit/table.js';
import { barChart } from '../parts/chart.js';

interface Usage {
  workspace: string;
  plan: string;
  credits: number;
  period: string;
  counters: Record<string, { used: number; allowance: number }>;
  rate_limit: { requests: number; window_seconds: number };
}

type Day = { date: string } & Record<string, number | string>;

const COUNTER_NAMES: Record<string, string> = {
  mcp_code_executions: 'Code executions over MCP',
  mcp_problem_generations: 'Problems generated over MCP',
};

const DAYS = 30;

function facts(usage: Usage): HTMLElement {
  const rows: [string, string][] = [
    ['Workspace', usage.workspace],
    ['Plan', usage.plan],
    ['Credits left', String(usage.credits)],
    ['Rate limit', `${usage.rate_limit.requests} requests per ${usage.rate_limit.window_seconds} s, per API key`],
    ['Period', `${usage.period} (UTC)`],
  ];
  return h(
    'dl',
    { class: 'facts' },
    rows.map(([term, value]) => [h('dt', null, term), h('dd', null, value)]),
  );
}

function counters(usage: Usage): HTMLElement {
  const rows = Object.entries(usage.counters).map(([name, counter]) => ({ name, ...counter }));
  return table(
    [
      { label: 'Counter', cell: (row) => [COUNTER_NAMES[row.name] ?? row.name, ' ', h('code', null, row.name)] },
      { label: 'Used', cell: (row) => row.used },
      { label: 'Monthly allowance', cell: (row) => row.allowance },
      {
        label: 'Share used',
        cell: (row) =>
          h('progress', {
            max: row.allowance,
            value: Math.min(row.used, row.allowance),
            'aria-label': `${row.name}: ${row.used} of ${row.allowance}`,
          }),
      },
    ],
    rows,
    'No metered counters.',
  );
}

page(
  '/usage',
  async () => {
    const [{ data: usage }, { data: days }] = await Promise.all([
      api<{ data: Usage }>('GET', '/usage'),
      api<{ data: Day[] }>('GET', '/usage/daily', undefined, { days: DAYS }),
    ]);
    return h(
      'section',
      null,
      h('h1', null, 'Usage and plan'),
      facts(usage),
      h('h2', null, 'This month'),
      counters(usage),
      h('h2', null, 'Executions per day'),
      h('p', { class: 'hint' }, 'Runs with one of this workspace’s API keys: POST /api/v1/code/execute and the MCP execute_code tool.'),
      barChart(
        `Code executions per day, last ${DAYS} days`,
        days.map((day) => ({ label: day.date, value: Number(day.code_executions) + Number(day.mcp_code_executions) })),
        'executions',
      ),
    );
  },
  { title: 'Usage and plan' },
);
