import type { ProblemFamily } from '../family.js';
import { binaryGrid, randomEdges, sizes } from './helpers.js';

const countIslands: ProblemFamily = {
  id: 'count-islands',
  title: 'Number of Islands',
  tags: ['graphs', 'bfs', 'grids'],
  functionName: 'count_islands',
  params: [{ name: 'grid', type: 'int[][]' }],
  returns: 'int',
  statement:
    '`grid` is a map of 1 (land) and 0 (water). An island is a group of land cells connected horizontally or vertically. Return the number of islands.',
  constraints: ['`grid` has between 1 and {n} rows and between 1 and {n} columns'],
  scales: sizes(4, 8, 15),
  fixed: [
    {
      grid: [
        [1, 1, 0, 0],
        [1, 0, 0, 1],
        [0, 0, 1, 1],
        [0, 0, 0, 0],
      ],
    },
    { grid: [[0]] },
  ],
  generate: (rng, { n }) => ({ grid: binaryGrid(rng, rng.int(1, n), rng.int(1, n), 0.45) }),
  solution: {
    python: `
      from collections import deque
      rows, cols = len(grid), len(grid[0])
      seen = [[False] * cols for _ in range(rows)]
      count = 0
      for r in range(rows):
          for c in range(cols):
              if grid[r][c] != 1 or seen[r][c]:
                  continue
              count += 1
              seen[r][c] = True
              queue = deque([(r, c)])
              while queue:
                  y, x = queue.popleft()
                  for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                      if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == 1 and not seen[ny][nx]:
                          seen[ny][nx] = True
                          queue.append((ny, nx))
      return count
    `,
    javascript: `
      const rows = grid.length;
      const cols = grid[0].length;
      const seen = grid.map((row) => row.map(() => false));
      let count = 0;
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (grid[r][c] !== 1 || seen[r][c]) continue;
          count++;
          seen[r][c] = true;
          const queue = [[r, c]];
          for (let head = 0; head < queue.length; head++) {
            const [y, x] = queue[head];
            for (const [ny, nx] of [[y + 1, x], [y - 1, x], [y, x + 1], [y, x - 1]]) {
              if (ny >= 0 && ny < rows && nx >= 0 && nx < cols && grid[ny][nx] === 1 && !seen[ny][nx]) {
                seen[ny][nx] = true;
                queue.push([ny, nx]);
              }
            }
          }
        }
      }
      return count;
    `,
  },
};

const shortestPath: ProblemFamily = {
  id: 'shortest-path-unweighted',
  title: 'Shortest Path in an Unweighted Graph',
  tags: ['graphs', 'bfs'],
  functionName: 'shortest_path',
  params: [
    { name: 'n', type: 'int' },
    { name: 'edges', type: 'int[][]' },
    { name: 'start', type: 'int' },
    { name: 'end', type: 'int' },
  ],
  returns: 'int',
  statement:
    'An undirected graph has nodes `0` to `n - 1` and the given `edges` (pairs `[a, b]`). Return the fewest edges on a path from `start` to `end`, or -1 if `end` cannot be reached.',
  constraints: ['2 <= n <= {n}', 'there are at most 2 * n edges', '0 <= start, end < n'],
  fixed: [
    {
      n: 5,
      edges: [
        [0, 1],
        [1, 2],
        [2, 3],
        [0, 4],
        [4, 3],
      ],
      start: 0,
      end: 3,
    },
    { n: 3, edges: [[0, 1]], start: 0, end: 2 },
    { n: 2, edges: [], start: 1, end: 1 },
  ],
  generate(rng, { n }) {
    const nodes = rng.int(2, n);
    return {
      n: nodes,
      edges: randomEdges(rng, nodes, rng.int(0, Math.ceil(nodes * 1.2))),
      start: rng.int(0, nodes - 1),
      end: rng.int(0, nodes - 1),
    };
  },
  solution: {
    python: `
      from collections import deque
      adj = [[] for _ in range(n)]
      for a, b in edges:
          adj[a].append(b)
          adj[b].append(a)
      dist = [-1] * n
      dist[start] = 0
      queue = deque([start])
      while queue:
          u = queue.popleft()
          for w in adj[u]:
              if dist[w] == -1:
                  dist[w] = dist[u] + 1
                  queue.append(w)
      return dist[end]
    `,
    javascript: `
      const adj = Array.from({ length: n }, () => []);
      for (const [a, b] of edges) {
        adj[a].push(b);
        adj[b].push(a);
      }
      const dist = new Array(n).fill(-1);
      dist[start] = 0;
      const queue = [start];
      for (let head = 0; head < queue.length; head++) {
        const u = queue[head];
        for (const w of adj[u]) {
          if (dist[w] === -1) {
            dist[w] = dist[u] + 1;
            queue.push(w);
          }
        }
      }
      return dist[end];
    `,
  },
};

const courseSchedule: ProblemFamily = {
  id: 'course-schedule',
  title: 'Course Schedule',
  tags: ['graphs', 'topological-sort'],
  functionName: 'can_finish',
  params: [
    { name: 'n', type: 'int' },
    { name: 'prereqs', type: 'int[][]' },
  ],
  returns: 'bool',
  statement:
    'There are `n` courses numbered `0` to `n - 1`. A pair `[a, b]` in `prereqs` means course `b` must be taken before course `a`. Return whether all courses can be finished.',
  constraints: ['1 <= n <= {n}', 'there are at most 2 * n pairs', '0 <= a, b < n'],
  fixed: [
    { n: 2, prereqs: [[1, 0]] },
    {
      n: 2,
      prereqs: [
        [1, 0],
        [0, 1],
      ],
    },
    { n: 1, prereqs: [] },
  ],
  generate(rng, { n }) {
    const courses = rng.int(1, n);
    const order = rng.shuffle(Array.from({ length: courses }, (_, i) => i));
    // Edges that follow a hidden order form a DAG; one reversed edge may close a cycle.
    const prereqs = Array.from({ length: courses > 1 ? rng.int(0, 2 * courses - 1) : 0 }, () => {
      const i = rng.int(0, courses - 2);
      const j = rng.int(i + 1, courses - 1);
      return [order[j], order[i]];
    });
    if (prereqs.length > 0 && rng.bool(0.4)) {
      const [a, b] = rng.pick(prereqs);
      prereqs.push([b, a]);
    }
    return { n: courses, prereqs };
  },
  solution: {
    python: `
      indegree = [0] * n
      after = [[] for _ in range(n)]
      for a, b in prereqs:
          after[b].append(a)
          indegree[a] += 1
      ready = [i for i in range(n) if indegree[i] == 0]
      done = 0
      while ready:
          u = ready.pop()
          done += 1
          for w in after[u]:
              indegree[w] -= 1
              if indegree[w] == 0:
                  ready.append(w)
      return done == n
    `,
    javascript: `
      const indegree = new Array(n).fill(0);
      const after = Array.from({ length: n }, () => []);
      for (const [a, b] of prereqs) {
        after[b].push(a);
        indegree[a]++;
      }
      const ready = [];
      for (let i = 0; i < n; i++) if (indegree[i] === 0) ready.push(i);
      let done = 0;
      while (ready.length > 0) {
        const u = ready.pop();
        done++;
        for (const w of after[u]) if (--indegree[w] === 0) ready.push(w);
      }
      return done === n;
    `,
  },
};

const components: ProblemFamily = {
  id: 'connected-components',
  title: 'Connected Components',
  tags: ['graphs', 'union-find'],
  functionName: 'count_components',
  params: [
    { name: 'n', type: 'int' },
    { name: 'edges', type: 'int[][]' },
  ],
  returns: 'int',
  statement: 'An undirected graph has nodes `0` to `n - 1` and the given `edges`. Return the number of connected components.',
  constraints: ['2 <= n <= {n}', 'there are at most n edges'],
  fixed: [
    {
      n: 5,
      edges: [
        [0, 1],
        [1, 2],
        [3, 4],
      ],
    },
    { n: 4, edges: [] },
  ],
  generate(rng, { n }) {
    const nodes = rng.int(2, n);
    return { n: nodes, edges: randomEdges(rng, nodes, rng.int(0, nodes)) };
  },
  solution: {
    python: `
      parent = list(range(n))
      def find(x):
          while parent[x] != x:
              parent[x] = parent[parent[x]]
              x = parent[x]
          return x
      count = n
      for a, b in edges:
          ra, rb = find(a), find(b)
          if ra != rb:
              parent[ra] = rb
              count -= 1
      return count
    `,
    javascript: `
      const parent = Array.from({ length: n }, (_, i) => i);
      const find = (x) => {
        while (parent[x] !== x) {
          parent[x] = parent[parent[x]];
          x = parent[x];
        }
        return x;
      };
      let count = n;
      for (const [a, b] of edges) {
        const ra = find(a);
        const rb = find(b);
        if (ra !== rb) {
          parent[ra] = rb;
          count--;
        }
      }
      return count;
    `,
  },
};

const gridPath: ProblemFamily = {
  id: 'grid-shortest-path',
  title: 'Shortest Path Through a Grid',
  tags: ['bfs', 'grids', 'graphs'],
  functionName: 'grid_shortest_path',
  params: [{ name: 'grid', type: 'int[][]' }],
  returns: 'int',
  statement:
    '`grid` has open cells (0) and walls (1). Moving one step up, down, left or right onto an open cell, return the fewest steps from the top-left to the bottom-right cell, or -1 if it cannot be done (including when either corner is a wall).',
  constraints: ['`grid` has between 1 and {n} rows and between 1 and {n} columns'],
  scales: sizes(4, 8, 15),
  fixed: [
    {
      grid: [
        [0, 0, 0],
        [1, 1, 0],
        [0, 0, 0],
      ],
    },
    {
      grid: [
        [0, 1],
        [1, 0],
      ],
    },
    { grid: [[0]] },
  ],
  generate: (rng, { n }) => ({ grid: binaryGrid(rng, rng.int(1, n), rng.int(1, n), 0.25) }),
  solution: {
    python: `
      from collections import deque
      rows, cols = len(grid), len(grid[0])
      if grid[0][0] == 1 or grid[rows - 1][cols - 1] == 1:
          return -1
      dist = {(0, 0): 0}
      queue = deque([(0, 0)])
      while queue:
          y, x = queue.popleft()
          if (y, x) == (rows - 1, cols - 1):
              return dist[(y, x)]
          for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
              if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == 0 and (ny, nx) not in dist:
                  dist[(ny, nx)] = dist[(y, x)] + 1
                  queue.append((ny, nx))
      return -1
    `,
    javascript: `
      const rows = grid.length;
      const cols = grid[0].length;
      if (grid[0][0] === 1 || grid[rows - 1][cols - 1] === 1) return -1;
      const dist = grid.map((row) => row.map(() => -1));
      dist[0][0] = 0;
      const queue = [[0, 0]];
      for (let head = 0; head < queue.length; head++) {
        const [y, x] = queue[head];
        if (y === rows - 1 && x === cols - 1) return dist[y][x];
        for (const [ny, nx] of [[y + 1, x], [y - 1, x], [y, x + 1], [y, x - 1]]) {
          if (ny >= 0 && ny < rows && nx >= 0 && nx < cols && grid[ny][nx] === 0 && dist[ny][nx] === -1) {
            dist[ny][nx] = dist[y][x] + 1;
            queue.push([ny, nx]);
          }
        }
      }
      return -1;
    `,
  },
};

export const graphFamilies: ProblemFamily[] = [countIslands, shortestPath, courseSchedule, components, gridPath];
