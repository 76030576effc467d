import { startNode, type ApiNode, type RunnerNode, type Service } from './service.js';

// Installed before start-up, so that a signal during start-up also ends in a clean shutdown.
let node: Service | ApiNode | RunnerNode | undefined;
let stopping: string | undefined;
const shutdown = (signal: string) => {
  stopping ??= signal;
  if (!node) return;
  // From here readiness answers 503 and new requests are refused; executions in flight finish.
  node.logger.info({ signal, role: node.role }, 'shutting down: finishing in-flight executions');
  void node.close().then(() => {
    node?.logger.info(node.role === 'api' ? 'stopped' : 'stopped; all sandbox containers removed');
    process.exit(0);
  });
};
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));

try {
  node = await startNode();
  const { url, config, role } = node;
  const where =
    node.role === 'api'
      ? { runnerUrl: config.RUNNER_URL }
      : { driver: config.SANDBOX_DRIVER, runtime: node.runner.ociRuntime, pool: config.POOL_ENABLED };
  node.logger.info({ url, role, ...where }, 'code runner ready');
  if (stopping) shutdown(stopping);
} catch (error) {
  process.stderr.write(`code-runner failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
