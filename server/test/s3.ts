import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

/**
 * An S3-compatible server (the `@20minutes/s3rver` package, signature v4 checked) on a free
 * local port with one bucket, files kept in a temporary directory. `env` points Podium at it.
 */
export async function startS3(bucket = 'podium', port = 0) {
  const directory = await mkdtemp(path.join(tmpdir(), 'podium-s3-'));
  const serve = async (on: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port: on,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket }],
    });
    return { server, address: await server.run() };
  };
  let { server, address } = await serve(port);
  const endpoint = `http://127.0.0.1:${address.port}`;
  let running = true;
  return {
    port: address.port,
    endpoint,
    env: (overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      ...overrides,
    }),
    /** Stops answering (the storage is down); files stay for a restart on the same port. */
    async stop() {
      if (running) await server.close();
      running = false;
    },
    /** Answers again on the same port, with the files it had (the storage is back). */
    async restart() {
      if (running) return;
      ({ server, address } = await serve(address.port));
      running = true;
    },
    async close() {
      await this.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
