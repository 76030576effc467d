import { api } from '../kit/api.js';
import { confirmDialog } from '../kit/dialog.js';
import { h } from '../kit/dom.js';
import { form } from '../kit/form.js';
import { when } from '../kit/format.js';
import { navigate, page, refresh } from '../kit/router.js';
import { pager, table } from '../kit/table.js';
import { revealSecret } from '../parts/secret.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  created_at: string;
}

interface Attempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  outcome: string;
  status_code: number | null;
  error: string | null;
}

interface Delivery {
  id: string;
  type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  attempt_log: Attempt[];
}

interface List<T> {
  data: T[];
  meta: { page: number; pageSize: number; total: number };
}

const PAGE_SIZE = 20;

async function remove(endpoint: Endpoint): Promise<void> {
  const sure = await confirmDialog(
    `Delete the endpoint ${endpoint.url}?`,
    'Events not yet delivered to it end as failed deliveries.',
    'Delete endpoint',
  );
  if (!sure) return;
  await api('DELETE', `/webhooks/${encodeURIComponent(endpoint.id)}`);
  refresh();
}

function endpointTable(endpoints: Endpoint[]): HTMLElement {
  return table<Endpoint>(
    [
      { label: 'URL', cell: (endpoint) => h('a', { href: `#/webhooks/${encodeURIComponent(endpoint.id)}` }, endpoint.url) },
      { label: 'Events', cell: (endpoint) => endpoint.events.join(', ') },
      { label: 'Description', cell: (endpoint) => endpoint.description ?? '' },
      { label: 'Created', cell: (endpoint) => when(endpoint.created_at) },
      {
        label: 'Actions',
        cell: (endpoint) =>
          h(
            'button',
            { type: 'button', class: 'danger', 'aria-label': `Delete ${endpoint.url}`, onclick: () => void remove(endpoint) },
            'Delete',
          ),
      },
    ],
    endpoints,
    'No webhook endpoints yet.',
  );
}

page(
  '/webhooks',
  async (_params, query) => {
    const pageNumber = Number(query.get('page') ?? 1);
    const { data, meta } = await api<List<Endpoint>>('GET', '/webhooks', undefined, { page: pageNumber, pageSize: PAGE_SIZE });
    const secretSlot = h('div');
    const create = form(
      [
        { name: 'url', label: 'URL', type: 'text', required: true, hint: 'https://… — where the signed events are POSTed' },
        {
          name: 'events',
          label: 'Events',
          type: 'text',
          required: true,
          value: '*',
          hint: 'Event types separated by commas (session.completed, participant.created, …), or * for all',
        },
        { name: 'description', label: 'Description', type: 'text' },
      ],
      'Add endpoint',
      async (values) => {
        const events = String(values.events)
          .split(',')
          .map((event) => event.trim())
          .filter(Boolean);
        const description = String(values.description).trim();
        const { data: created } = await api<{ data: Endpoint & { secret: string } }>('POST', '/webhooks', {
          url: String(values.url).trim(),
          events,
          ...(description ? { description } : {}),
        });
        create.reset();
        secretSlot.replaceChildren(revealSecret(`Endpoint ${created.url} added`, 'Its signing secret', created.secret));
        secretSlot.querySelector<HTMLInputElement>('input')?.focus();
        list.replaceChildren(
          endpointTable((await api<List<Endpoint>>('GET', '/webhooks', undefined, { page: 1, pageSize: PAGE_SIZE })).data),
        );
      },
    );
    const list = h('div', { 'aria-live': 'polite' }, endpointTable(data));
    return h(
      'section',
      null,
      h('h1', null, 'Webhooks'),
      h('p', null, 'Each endpoint receives the events it subscribes to, signed with its secret (see the API documentation).'),
      secretSlot,
      h('h2', null, 'Add an endpoint'),
      create,
      h('h2', null, 'Endpoints'),
      list,
      pager(meta.page, meta.pageSize, meta.total, (next) => navigate(`#/webhooks?page=${next}`)),
    );
  },
  { title: 'Webhooks' },
);

function attemptLog(delivery: Delivery): HTMLElement | string {
  if (delivery.attempt_log.length === 0) return 'none yet';
  return h(
    'details',
    null,
    h('summary', null, `${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}`),
    h(
      'ol',
      null,
      delivery.attempt_log.map((attempt) =>
        h(
          'li',
          null,
          `${when(attempt.started_at)}: ${attempt.outcome}`,
          attempt.status_code === null ? '' : ` (HTTP ${attempt.status_code})`,
          `, ${attempt.duration_ms} ms`,
          attempt.error ? ` — ${attempt.error}` : '',
        ),
      ),
    ),
  );
}

page(
  '/webhooks/:id',
  async (params, query) => {
    const pageNumber = Number(query.get('page') ?? 1);
    const id = encodeURIComponent(params.id);
    const [{ data: endpoint }, { data: deliveries, meta }] = await Promise.all([
      api<{ data: Endpoint }>('GET', `/webhooks/${id}`),
      api<List<Delivery>>('GET', `/webhooks/${id}/deliveries`, undefined, { page: pageNumber, pageSize: PAGE_SIZE }),
    ]);
    return h(
      'section',
      null,
      h('p', null, h('a', { href: '#/webhooks' }, '← Webhooks')),
      h('h1', null, 'Deliveries to ', h('span', { class: 'url' }, endpoint.url)),
      h('p', null, 'Events: ', endpoint.events.join(', ')),
      table<Delivery>(
        [
          { label: 'Event', cell: (delivery) => delivery.type },
          { label: 'Status', cell: (delivery) => h('span', { class: `status status-${delivery.status}` }, delivery.status) },
          { label: 'Attempts', cell: attemptLog },
          { label: 'Last answer', cell: (delivery) => (delivery.last_status_code === null ? '—' : `HTTP ${delivery.last_status_code}`) },
          { label: 'Last error', cell: (delivery) => delivery.last_error ?? '' },
          { label: 'Created', cell: (delivery) => when(delivery.created_at) },
          {
            label: 'Delivered / next try',
            cell: (delivery) =>
              delivery.delivered_at
                ? when(delivery.delivered_at)
                : delivery.next_attempt_at
                  ? `next ${when(delivery.next_attempt_at)}`
                  : '—',
          },
        ],
        deliveries,
        'No deliveries yet.',
      ),
      pager(meta.page, meta.pageSize, meta.total, (next) => navigate(`#/webhooks/${id}?page=${next}`)),
    );
  },
  { title: 'Webhook deliveries', nav: '#/webhooks' },
);
