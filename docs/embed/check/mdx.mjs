// Compiles a Markdown file as MDX 3 (@mdx-js/mdx, what Docusaurus, Astro and Next.js run) and
// renders it to HTML with a minimal JSX runtime (no React needed): node mdx.mjs FILE.mdx
import { readFileSync } from 'node:fs'
import { compile, run } from '@mdx-js/mdx'

const Fragment = Symbol('Fragment')
const esc = (s, attr) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, attr ? '&quot;' : '"')
const html = (node) => {
  if (node === null || node === undefined || node === false || node === true) return ''
  if (Array.isArray(node)) return node.map(html).join('')
  if (typeof node === 'object' && 'html' in node) return node.html
  return esc(node, false)
}
const jsx = (type, props) => {
  if (typeof type === 'function') return type(props)
  const { children, ...attrs } = props
  const inner = html(children)
  if (type === Fragment) return { html: inner }
  const list = Object.entries(attrs).map(([k, v]) => ` ${k === 'className' ? 'class' : k}="${esc(v, true)}"`).join('')
  // The text of <style> and <script> is written as it is, as React writes it.
  const body = type === 'style' ? [children].flat().join('') : inner
  return { html: `<${type}${list}>${body}</${type}>` }
}
const code = await compile(readFileSync(process.argv[2], 'utf8'), { outputFormat: 'function-body' })
const { default: Content } = await run(String(code), { Fragment, jsx, jsxs: jsx, baseUrl: import.meta.url })
process.stdout.write(html(Content({})))
