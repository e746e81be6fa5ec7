// Renders a Markdown file with remark and rehype, raw HTML kept (allowDangerousHtml on both
// sides): node remark.mjs FILE.md
import { readFileSync } from 'node:fs'
import { unified } from 'unified'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import rehypeStringify from 'rehype-stringify'

const file = await unified()
  .use(remarkParse)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeStringify, { allowDangerousHtml: true })
  .process(readFileSync(process.argv[2], 'utf8'))
process.stdout.write(String(file))
