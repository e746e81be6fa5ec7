// Renders a Markdown file with markdown-it, HTML allowed (what VitePress and other
// markdown-it sites do with md -inline's output): node markdown-it.mjs FILE.md
import { readFileSync } from 'node:fs'
import MarkdownIt from 'markdown-it'

process.stdout.write(new MarkdownIt({ html: true }).render(readFileSync(process.argv[2], 'utf8')))
