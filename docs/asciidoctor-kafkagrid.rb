# Registers kafkagrid's diagram types, bytegrid and kafka, with asciidoctor-kroki, whose list
# of block names is fixed (its SUPPORTED_DIAGRAM_NAMES); the blocks are then drawn by the
# server :kroki-server-url: names (kafkagrid serve), exactly as Kroki's own types are.
# [bytegrid,format=rfcsvg] asks for RFC 7996's SVG: as an svg file (which Asciidoctor and
# Asciidoctor PDF embed) with the option format=rfcsvg, which the server reads.
# Tested by TestServeAsciidoctor and TestEmbedAsciidoctorPDF (go test ./cmd/kafkagrid).
#
#   asciidoctor -r asciidoctor-kroki -r ./docs/asciidoctor-kafkagrid.rb \
#     -a kroki-server-url=http://127.0.0.1:8000 doc.adoc
require 'asciidoctor-kroki'

# format=rfcsvg: the block's image an svg (its file name, its format for Asciidoctor PDF), the
# request's option format=rfcsvg (a Kroki-Diagram-Options-format header).
module KafkagridRFCSVG
  def process(processor, parent, attrs, diagram_type, diagram_text, logger)
    if attrs['format'] == 'rfcsvg'
      attrs['format'] = 'svg'
      attrs['kafkagrid-rfcsvg'] = 'true'
    end
    super
  end
end
::AsciidoctorExtensions::KrokiProcessor.singleton_class.prepend(KafkagridRFCSVG)

module KafkagridRFCSVGOption
  def initialize(type, format, text, target = nil, opts = {})
    opts = opts.reject { |k, _| k == 'kafkagrid-rfcsvg' }.merge('format' => 'rfcsvg') if opts.key?('kafkagrid-rfcsvg')
    super(type, format, text, target, opts)
  end
end
::AsciidoctorExtensions::KrokiDiagram.prepend(KafkagridRFCSVGOption)

Asciidoctor::Extensions.register do
  %w[bytegrid kafka].each do |name|
    block ::AsciidoctorExtensions::KrokiBlockProcessor, name
    block_macro ::AsciidoctorExtensions::KrokiBlockMacroProcessor, name
  end
end
