import { startService, type Service } from './service.js';

// Installed before start-up, so that a signal during start-up also ends in a clean shutdown.
let service: Service | undefined;
let stopping: string | undefined;
const shutdown = (signal: string) => {
  stopping ??= signal;
  if (!service) return;
  service.logger.info({ signal }, 'shutting down: finishing in-flight executions');
  void service.close().then(() => {
    service?.logger.info('stopped; all sandbox containers removed');
    process.exit(0);
  });
};
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));

try {
  service = await startService();
  const { url, config, runner } = service;
  service.logger.info({ url, driver: config.SANDBOX_DRIVER, runtime: runner.ociRuntime, pool: config.POOL_ENABLED }, 'code runner ready');
  if (stopping) shutdown(stopping);
} catch (error) {
  process.stderr.write(`code-runner failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
