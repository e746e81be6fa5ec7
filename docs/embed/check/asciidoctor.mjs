// Converts an AsciiDoc file to HTML with Asciidoctor.js and asciidoctor-kroki extended by
// ../asciidoctor-kafkagrid.js, as docs/embedding.md says: node asciidoctor.mjs FILE.adoc SERVER
// writes the page on stdout; a warning (a block the server refused) is an error.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)
const asciidoctor = require('@asciidoctor/core')()
const [file, server] = process.argv.slice(2)
const registry = asciidoctor.Extensions.create()
require('../asciidoctor-kafkagrid.js').register(registry)
const memory = asciidoctor.MemoryLogger.create()
asciidoctor.LoggerManager.setLogger(memory)
const html = asciidoctor.convert(readFileSync(file, 'utf8'), {
  safe: 'safe',
  base_dir: dirname(file),
  standalone: true,
  extension_registry: registry,
  attributes: { 'kroki-server-url': server, 'kroki-fetch-diagram': true, 'data-uri': true }
})
const messages = memory.getMessages()
if (messages.length > 0) {
  for (const m of messages) console.error(`${m.getSeverity()}: ${JSON.stringify(m.getText())}`)
  process.exit(1)
}
process.stdout.write(html)
