# Registers kafkagrid's diagram types, bytegrid and kafka, with asciidoctor-kroki, whose list
# of block names is fixed (its SUPPORTED_DIAGRAM_NAMES); the blocks are then drawn by the
# server :kroki-server-url: names (kafkagrid serve), exactly as Kroki's own types are.
#
#   asciidoctor -r asciidoctor-kroki -r ./docs/asciidoctor-kafkagrid.rb \
#     -a kroki-server-url=http://127.0.0.1:8000 doc.adoc
require 'asciidoctor-kroki'

Asciidoctor::Extensions.register do
  %w[bytegrid kafka].each do |name|
    block ::AsciidoctorExtensions::KrokiBlockProcessor, name
    block_macro ::AsciidoctorExtensions::KrokiBlockMacroProcessor, name
  end
end
