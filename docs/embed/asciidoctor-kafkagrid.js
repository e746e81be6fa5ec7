// Registers kafkagrid's diagram types, bytegrid and kafka, with the npm asciidoctor-kroki
// (Asciidoctor.js, Antora), whose list of diagram names is fixed: its own block processor,
// taken from asciidoctor-kroki's register, is registered once more under each of our names, so
// the blocks go to the server :kroki-server-url: names (kafkagrid serve) as Kroki's types do.
// Tested by TestEmbedNode (go test ./cmd/kafkagrid), with docs/embed/package.json's versions.
//
//   const asciidoctor = require('@asciidoctor/core')()
//   const registry = asciidoctor.Extensions.create()
//   require('./asciidoctor-kafkagrid.js').register(registry)
//   asciidoctor.convert(text, { extension_registry: registry, attributes: { 'kroki-server-url': 'http://127.0.0.1:8000' } })
//
// In an Antora playbook: asciidoc: { extensions: ['./asciidoctor-kafkagrid.js'] } (it
// registers asciidoctor-kroki's own types too, so list it instead of asciidoctor-kroki).
const kroki = require('asciidoctor-kroki')

const types = ['bytegrid', 'kafka']

module.exports.register = function register (registry, context = {}) {
  kroki.register(registry, context)
  let block // asciidoctor-kroki's block processor; it reads the diagram type from its name
  kroki.register({ block: (name, processor) => { block = block || processor }, blockMacro: () => {} }, context)
  if (!block) {
    throw new Error('asciidoctor-kafkagrid: asciidoctor-kroki registered no block processor')
  }
  if (typeof registry.register === 'function') {
    registry.register(function () {
      for (const name of types) this.block(name, block)
    })
  } else {
    for (const name of types) registry.block(name, block)
  }
  return registry
}
