import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'

export type LocalS3 = {
  endpoint: string
  bucket: string
  env: Record<string, string>
  close(): Promise<void>
}

/** An S3-compatible server in this process, on loopback, with one empty bucket; any keys are accepted. */
export async function startLocalS3(port: number, bucket = 'laptop-media'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-s3-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    resetOnClose: true,
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket }],
  })
  await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: async () => {
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}
