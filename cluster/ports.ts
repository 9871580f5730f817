import net from 'node:net'

/**
 * Refuses a port something already listens on. A server left over from an earlier, interrupted run would
 * otherwise answer the health check in place of the one just started (which fails to listen and exits),
 * and the run would go on against the old server and its old settings.
 */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on ${host} is already in use (a server left from an earlier run?): stop it or choose other ports`,
            )
          : err,
      ),
    )
    probe.listen(port, host, () => probe.close(() => resolve()))
  })
}
