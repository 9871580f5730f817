// `npm run serve`: the compiled server (dist/app/main.js, `npm run build` first) as `npm start` and the image run it.
import './node-check.mjs'
import path from 'node:path'
import { runServer } from './server-runtime.mjs'

runServer(path.resolve(import.meta.dirname, '..'))
