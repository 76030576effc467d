import { h } from '../kit/dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/**
 * A bar per day, drawn with SVG attributes only (the style policy allows no inline styles), and the
 * same figures as a table for screen readers and for reading exact values.
 */
export function barChart(title: string, points: { label: string; value: number }[], unit: string): HTMLElement {
  const width = 640;
  const height = 160;
  const highest = Math.max(0, ...points.map((point) => point.value));
  // An empty month draws no bars rather than dividing by zero.
  const top = Math.max(1, highest);
  const slot = width / Math.max(1, points.length);
  const bars = points.map((point, index) => {
    const barHeight = Math.round((point.value / top) * (height - 20));
    return svg(
      'rect',
      { x: index * slot + 1, y: height - barHeight, width: Math.max(1, slot - 2), height: barHeight, class: 'bar' },
      svg('title', {}, `${point.label}: ${point.value} ${unit}`),
    );
  });
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `${title}: ${total} ${unit} in all, at most ${highest} a day`,
      class: 'chart',
    },
    svg('line', { x1: 0, y1: height, x2: width, y2: height, class: 'axis' }),
    ...bars,
  );
  const first = points[0]?.label ?? '';
  const last = points[points.length - 1]?.label ?? '';
  return h(
    'figure',
    { class: 'chart-figure' },
    chart,
    h('figcaption', null, `${title}, ${first} to ${last}: ${total} in all, at most ${highest} a day.`),
    h(
      'details',
      null,
      h('summary', null, 'Show as a table'),
      h(
        'table',
        null,
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, unit))),
        h(
          'tbody',
          null,
          points.map((point) => h('tr', null, h('td', null, point.label), h('td', null, point.value))),
        ),
      ),
    ),
  );
}
