import { startService } from './service.js';

try {
  const service = await startService();
  service.logger.info({ url: service.url, runtime: service.runner.ociRuntime, pool: service.config.POOL_ENABLED }, 'code runner ready');
  const shutdown = (signal: string) => {
    service.logger.info({ signal }, 'shutting down: finishing in-flight executions');
    void service.close().then(() => {
      service.logger.info('stopped; all sandbox containers removed');
      process.exit(0);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  process.stderr.write(`code-runner failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
