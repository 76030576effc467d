import type { ProblemFamily } from '../family.js';
import { arrayFamilies } from './arrays.js';
import { dpFamilies } from './dp.js';
import { graphFamilies } from './graphs.js';
import { intervalFamilies } from './intervals.js';
import { mathFamilies } from './math.js';
import { stackFamilies } from './stacks.js';
import { stringFamilies } from './strings.js';

/** Every problem family, in a fixed order: seeds index into it, so reordering changes generated problems. */
export const CATALOGUE: readonly ProblemFamily[] = [
  ...arrayFamilies,
  ...stringFamilies,
  ...stackFamilies,
  ...intervalFamilies,
  ...graphFamilies,
  ...dpFamilies,
  ...mathFamilies,
];

/** Topics are tags; a family id also works as a topic, to ask for one family exactly. */
export const TOPICS: readonly string[] = [...new Set(CATALOGUE.flatMap((f) => f.tags))].sort();

const ALIASES: Record<string, string> = { 'dynamic-programming': 'dp', hashing: 'hash-maps', 'breadth-first-search': 'bfs' };

export function normaliseTopic(topic: string): string {
  const plain = topic
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return ALIASES[plain] ?? plain;
}

/** Families matching the topic (all when none is given); empty for an unknown topic. */
export function familiesFor(topic: string | undefined): ProblemFamily[] {
  if (topic === undefined) return [...CATALOGUE];
  const wanted = normaliseTopic(topic);
  const byId = CATALOGUE.filter((f) => f.id === wanted);
  if (byId.length > 0) return byId;
  // Accept the singular too ("graph", "string", "stack").
  return CATALOGUE.filter((f) => f.tags.some((tag) => tag === wanted || tag === `${wanted}s`));
}
