import { h } from '../../kit/dom.js';
import { table } from '../../kit/table.js';
import { figure, when, words } from './format.js';
import type { Scorecard } from './model.js';
import { facts } from './parts.js';

/** The pass threshold the API applies when the round sets none (src/resources/sessions/scorecard.ts). */
const DEFAULT_PASS_THRESHOLD = 70;

/** The top of a scale such as `0-10`. */
const topOf = (scale: string) => Number(scale.split('-')[1]);

/** A bar of a score against its scale: a native meter, announced by screen readers with its label. */
function bar(label: string, value: number, max: number, threshold?: number): HTMLElement {
  return h(
    'meter',
    {
      class: 'iv-bar',
      'aria-label': label,
      min: 0,
      max,
      value,
      // low = high = the threshold: Chromium and Firefox colour a value below it as poor and one at or above it as good.
      low: threshold,
      high: threshold,
      optimum: max,
    },
    `${figure(value)} / ${max}`,
  );
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * The pass threshold as a vertical line over the weighted result's bar. SVG attributes, not inline style, place it (the
 * CSP allows no style attribute); it is decoration, since the threshold is also written out in figures.
 */
function thresholdMark(percent: number): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'iv-threshold');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const line = document.createElementNS(SVG, 'line');
  for (const [name, value] of Object.entries({ x1: `${percent}%`, x2: `${percent}%`, y1: '0', y2: '100%' })) line.setAttribute(name, value);
  svg.append(line);
  return svg;
}

/** A scorecard: each dimension's score as a bar against the scale, the weighted result, the threshold and the verdict. */
export function scorecardView(card: Scorecard, timeZone: string): HTMLElement {
  const max = topOf(card.scale);
  const threshold = card.pass_threshold ?? DEFAULT_PASS_THRESHOLD;
  const percent = (card.weighted_score * 100) / max;
  const thresholdScore = (threshold * max) / 100;
  return h(
    'div',
    { class: 'iv-scorecard' },
    h(
      'p',
      { class: `iv-verdict ${card.passed ? 'iv-passed' : 'iv-failed'}` },
      h('span', { class: 'iv-verdict-word' }, words(card.recommendation)),
      ' ',
      card.passed ? 'Passed' : 'Not passed',
    ),
    h(
      'div',
      { class: 'iv-result' },
      h('span', { class: 'iv-result-label' }, 'Weighted result'),
      h(
        'span',
        { class: 'iv-track' },
        bar(`Weighted result: ${figure(card.weighted_score)} of ${max}`, card.weighted_score, max, thresholdScore),
        thresholdMark(threshold),
      ),
      h('span', { class: 'iv-result-figure' }, `${figure(card.weighted_score)} / ${max} (${figure(percent)} %)`),
    ),
    facts([
      [
        'Pass threshold',
        `${figure(threshold)} % of the scale (${figure(thresholdScore)} / ${max})${card.pass_threshold === null ? ', the default' : ''}`,
      ],
      ['Recommendation', words(card.recommendation)],
      ['Scale', card.scale],
      ['Scored', when(card.created_at, timeZone)],
    ]),
    table<Scorecard['scores'][number]>(
      [
        { label: 'Dimension', cell: (dimension) => dimension.name },
        { label: 'Weight', cell: (dimension) => `${figure(dimension.weight)} %` },
        { label: 'Score', cell: (dimension) => `${figure(dimension.score)} / ${max}` },
        {
          label: 'Against the scale',
          cell: (dimension) => bar(`${dimension.name}: ${figure(dimension.score)} of ${max}`, dimension.score, max),
        },
      ],
      card.scores,
      'No dimensions.',
    ),
    card.summary ? h('div', { class: 'iv-summary' }, h('h3', null, 'Summary'), h('p', null, card.summary)) : null,
  );
}
