-- The runtime: it walks the tables above over the bytes. Every read is checked against the
-- bytes left; a frame that does not read whole is marked (expert info) and the next one read.

local kg = Proto("kafkagrid", "Kafka (kafkagrid)")

local FT = {
  bool = function(a, n, d) return ProtoField.bool(a, n, base.NONE, nil, nil, d) end,
  int8 = function(a, n, d, vs) return ProtoField.int8(a, n, base.DEC, vs, nil, d) end,
  int16 = function(a, n, d, vs) return ProtoField.int16(a, n, base.DEC, vs, nil, d) end,
  uint16 = function(a, n, d) return ProtoField.uint16(a, n, base.DEC, nil, nil, d) end,
  int32 = function(a, n, d, vs) return ProtoField.int32(a, n, base.DEC, vs, nil, d) end,
  int64 = function(a, n, d) return ProtoField.int64(a, n, base.DEC, nil, nil, d) end,
  double = function(a, n, d) return ProtoField.double(a, n, d) end,
  string = function(a, n, d) return ProtoField.string(a, n, base.UNICODE, d) end,
  bytes = function(a, n, d) return ProtoField.bytes(a, n, base.NONE, d) end,
  guid = function(a, n, d) return ProtoField.guid(a, n, d) end,
  none = function(a, n, d) return ProtoField.none(a, n, d) end,
}

local PF, PF_SPEC_ABBREV = {}, {}
for i, s in ipairs(PF_SPEC) do
  PF_SPEC_ABBREV[i] = s[1]
  local vs = nil
  if s[5] then vs = ERRORS elseif s[6] > 0 then vs = ENUMS[s[6]] end
  PF[i] = FT[s[3]](s[1], s[2], s[4], vs)
end

local G = {
  size = ProtoField.int32("kafkagrid.size", "Size", base.DEC, nil, nil, "Size of the rest of the frame in bytes"),
  request = ProtoField.none("kafkagrid.request", "Request"),
  response = ProtoField.none("kafkagrid.response", "Response"),
  header = ProtoField.none("kafkagrid.header", "Header"),
  body = ProtoField.none("kafkagrid.body", "Body"),
  api_key = ProtoField.int16("kafkagrid.api_key", "API key", base.DEC, API_NAMES),
  api_version = ProtoField.int16("kafkagrid.api_version", "API version"),
  header_version = ProtoField.int16("kafkagrid.header_version", "Header version"),
  correlation_id = ProtoField.int32("kafkagrid.correlation_id", "Correlation id"),
  client_id = ProtoField.string("kafkagrid.client_id", "Client id", base.UNICODE),
  request_frame = ProtoField.framenum("kafkagrid.request_frame", "Request in frame"),
  response_frame = ProtoField.framenum("kafkagrid.response_frame", "Response in frame"),
  error_code = ProtoField.int16("kafkagrid.error_code", "Error code", base.DEC, ERRORS),
  null = ProtoField.string("kafkagrid.null", "Null", base.ASCII, "The filter name of a field that is null"),
  array = ProtoField.none("kafkagrid.array", "Array"),
  element = ProtoField.none("kafkagrid.element", "Element"),
  count = ProtoField.int32("kafkagrid.count", "Count"),
  tagged_fields = ProtoField.uint32("kafkagrid.tagged_fields", "Tagged fields"),
  tag = ProtoField.uint32("kafkagrid.tag", "Tag"),
  tag_size = ProtoField.uint32("kafkagrid.tag_size", "Tag size"),
  unknown_tag = ProtoField.bytes("kafkagrid.unknown_tag", "Unknown tagged field"),
  unread = ProtoField.bytes("kafkagrid.unread", "Bytes not dissected"),
  compressed = ProtoField.bytes("kafkagrid.compressed", "Compressed records"),
  batch = ProtoField.none("kafkagrid.record_batch", "Record batch"),
  b_base_offset = ProtoField.int64("kafkagrid.record_batch.base_offset", "BaseOffset"),
  b_length = ProtoField.int32("kafkagrid.record_batch.batch_length", "BatchLength"),
  b_leader_epoch = ProtoField.int32("kafkagrid.record_batch.partition_leader_epoch", "PartitionLeaderEpoch"),
  b_magic = ProtoField.int8("kafkagrid.record_batch.magic", "Magic"),
  b_crc = ProtoField.uint32("kafkagrid.record_batch.crc", "CRC", base.HEX),
  b_attributes = ProtoField.int16("kafkagrid.record_batch.attributes", "Attributes", base.DEC),
  b_codec = ProtoField.uint16("kafkagrid.record_batch.codec", "Compression", base.DEC,
    {[0]="none", [1]="gzip", [2]="snappy", [3]="lz4", [4]="zstd"}, 0x0007),
  b_last_offset_delta = ProtoField.int32("kafkagrid.record_batch.last_offset_delta", "LastOffsetDelta"),
  b_base_timestamp = ProtoField.int64("kafkagrid.record_batch.base_timestamp", "BaseTimestamp"),
  b_max_timestamp = ProtoField.int64("kafkagrid.record_batch.max_timestamp", "MaxTimestamp"),
  b_producer_id = ProtoField.int64("kafkagrid.record_batch.producer_id", "ProducerId"),
  b_producer_epoch = ProtoField.int16("kafkagrid.record_batch.producer_epoch", "ProducerEpoch"),
  b_base_sequence = ProtoField.int32("kafkagrid.record_batch.base_sequence", "BaseSequence"),
  b_records = ProtoField.int32("kafkagrid.record_batch.records", "Records"),
  record = ProtoField.none("kafkagrid.record", "Record"),
  r_length = ProtoField.int32("kafkagrid.record.length", "Length"),
  r_attributes = ProtoField.int8("kafkagrid.record.attributes", "Attributes"),
  r_timestamp_delta = ProtoField.int64("kafkagrid.record.timestamp_delta", "TimestampDelta"),
  r_offset_delta = ProtoField.int64("kafkagrid.record.offset_delta", "OffsetDelta"),
  r_key = ProtoField.bytes("kafkagrid.record.key", "Key"),
  r_value = ProtoField.bytes("kafkagrid.record.value", "Value"),
  r_headers = ProtoField.int32("kafkagrid.record.headers", "Headers"),
  h_key = ProtoField.string("kafkagrid.record.header.key", "Key", base.UNICODE),
  h_value = ProtoField.bytes("kafkagrid.record.header.value", "Value"),
  message = ProtoField.none("kafkagrid.message", "Message"),
  m_offset = ProtoField.int64("kafkagrid.message.offset", "Offset"),
  m_size = ProtoField.int32("kafkagrid.message.message_size", "MessageSize"),
  m_crc = ProtoField.uint32("kafkagrid.message.crc", "CRC", base.HEX),
  m_magic = ProtoField.int8("kafkagrid.message.magic", "Magic"),
  m_attributes = ProtoField.int8("kafkagrid.message.attributes", "Attributes"),
  m_timestamp = ProtoField.int64("kafkagrid.message.timestamp", "Timestamp"),
  m_key = ProtoField.bytes("kafkagrid.message.key", "Key"),
  m_value = ProtoField.bytes("kafkagrid.message.value", "Value"),
}

local fields = {}
for _, f in ipairs(PF) do fields[#fields + 1] = f end
for _, f in pairs(G) do fields[#fields + 1] = f end
kg.fields = fields

local E = {
  malformed = ProtoExpert.new("kafkagrid.malformed", "Malformed Kafka frame", expert.group.MALFORMED, expert.severity.ERROR),
  trailing = ProtoExpert.new("kafkagrid.trailing", "Bytes after the end of the message", expert.group.MALFORMED, expert.severity.ERROR),
  unknown = ProtoExpert.new("kafkagrid.unknown", "Message this dissector does not know", expert.group.UNDECODED, expert.severity.WARN),
  unpaired = ProtoExpert.new("kafkagrid.unpaired", "Response whose request is not in the capture", expert.group.SEQUENCE, expert.severity.NOTE),
  fallback = ProtoExpert.new("kafkagrid.fallback", "ApiVersions response read at v0 (KIP-511)", expert.group.PROTOCOL, expert.severity.NOTE),
  compressed = ProtoExpert.new("kafkagrid.compressed.closed", "Compressed records not opened", expert.group.UNDECODED, expert.severity.NOTE),
}
kg.experts = {E.malformed, E.trailing, E.unknown, E.unpaired, E.fallback, E.compressed}

kg.prefs.ports = Pref.range("Kafka ports", KG_PORTS, "TCP ports of Kafka brokers", 65535)
kg.prefs.max_frame = Pref.uint("Largest frame", 104857600, "Frames announcing more bytes than this are marked malformed")

-- The versions of every API, by side: version → variant.
for _, api in pairs(APIS) do
  for _, side in ipairs({"req", "resp"}) do
    local byv = {}
    for _, var in ipairs(api[side]) do
      for _, v in ipairs(var.versions) do byv[v] = var end
    end
    api[side .. "_by"] = byv
  end
end

local CODECS = {[0]="none", [1]="gzip", [2]="snappy", [3]="lz4", [4]="zstd"}

-- A cursor: the tvb, the offset of the next byte, the end of what may be read.
local function fail(c, msg)
  error({kafkagrid = true, msg = msg, off = c.off}, 0)
end

local function need(c, n)
  if n < 0 or c.off + n > c.lim then
    fail(c, string.format("%d bytes needed at offset %d, %d left", n, c.off, c.lim - c.off))
  end
end

local function left(c) return c.lim - c.off end

-- An item over n bytes at off (n may be 0); t nil is a dry run.
local function rg(c, off, n)
  local len = c.tvb:len()
  if n == 0 and off >= len then
    -- An empty item at the end: Wireshark has no range there.
    if len == 0 then return nil end
    return c.tvb:range(len - 1, 0)
  end
  return c.tvb:range(off, n)
end

local function take(c, n)
  need(c, n)
  local r = rg(c, c.off, n)
  c.off = c.off + n
  return r
end

local function add(t, f, range, ...)
  if t == nil then return nil end
  return t:add(f, range, ...)
end

local function fixed_int(c, n)
  local r = take(c, n)
  if n == 1 then return r:int(), r end
  if n == 2 then return r:int(), r end
  if n == 4 then return r:int(), r end
  return r:int64():tonumber(), r
end

-- An unsigned varint (LEB128), up to 10 bytes, as a Lua number.
local function uvarint(c)
  local v, mult, start = 0, 1, c.off
  for i = 1, 10 do
    need(c, 1)
    local b = c.tvb:range(c.off, 1):uint()
    c.off = c.off + 1
    v = v + (b % 128) * mult
    if b < 128 then
      if v > 9007199254740992 then
        c.off = start
        fail(c, "varint beyond 2^53")
      end
      return v, c.tvb:range(start, c.off - start)
    end
    mult = mult * 128
  end
  fail(c, "varint longer than 10 bytes")
end

local function varint(c)
  local u, r = uvarint(c)
  if u % 2 == 0 then return u / 2, r end
  return -(u + 1) / 2, r
end

local function in_range(lo, hi, v) return lo >= 0 and v >= lo and v <= hi end

-- CRC-32C (record batches) and CRC-32 (legacy messages), reflected, table-driven.
local function crc_table(poly)
  local t = {}
  for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
      if c % 2 == 1 then c = bit32.bxor(bit32.rshift(c, 1), poly) else c = bit32.rshift(c, 1) end
    end
    t[i] = c
  end
  return t
end
local CRC32C, CRC32 = crc_table(0x82F63B78), crc_table(0xEDB88320)

local function crc(tbl, c, off, n)
  local x = 0xFFFFFFFF
  if n > 0 then
    local s = c.tvb:range(off, n):raw()
    local band, bxor, rshift, byte = bit32.band, bit32.bxor, bit32.rshift, string.byte
    for i = 1, n do
      x = bxor(tbl[band(bxor(x, byte(s, i)), 0xFF)], rshift(x, 8))
    end
  end
  return bit32.bxor(x, 0xFFFFFFFF)
end

-- check_crc fails unless the CRC at crc_off is that of the bytes from start to the cursor.
local function check_crc(c, tbl, crc_off, start, what)
  local want = c.tvb:range(crc_off, 4):uint()
  local got = crc(tbl, c, start, c.off - start)
  if got ~= want then
    c.off = crc_off
    fail(c, string.format("%s CRC 0x%08x, its bytes give 0x%08x", what, want, got))
  end
end

local walk_fields, walk_records

local function add_null(t, pf, range, name)
  if t == nil then return end
  local it = t:add(G.null, range, PF_SPEC_ABBREV[pf])
  it:set_text(name .. ": null")
end

-- A length or count: compact (uvarint N+1), int16 or int32; -1 is null.
local function read_len(c, compact, width)
  if compact then
    local u, r = uvarint(c)
    if u > 2147483647 then fail(c, "compact length out of range") end
    return u - 1, r
  end
  local v, r = fixed_int(c, width)
  return v, r
end

-- A primitive value of field f (pf its field index), as a field or an array element.
local function read_prim(c, t, f, pf, typ, compact, nullable, name)
  local start = c.off
  if typ == "str" or typ == "bytes" then
    local width = 2
    if typ == "bytes" then width = 4 end
    local n = read_len(c, compact, width)
    if n < -1 or (n == -1 and not nullable) then
      c.off = start
      fail(c, string.format("%s: invalid length %d", name, n))
    end
    if n == -1 then
      add_null(t, pf, rg(c, start, c.off - start), name)
      return
    end
    if n > left(c) then fail(c, string.format("%s: length %d exceeds the %d bytes left", name, n, left(c))) end
    local data_off = c.off
    local r = take(c, n)
    local it = nil
    if t ~= nil then
      if typ == "str" then
        it = t:add_packet_field(PF[pf], r, ENC_UTF_8)
      else
        it = t:add(PF[pf], r)
      end
    end
    return data_off, n, it
  end
  local w = ({bool = 1, i8 = 1, i16 = 2, u16 = 2, i32 = 4, i64 = 8, f64 = 8, uuid = 16})[typ]
  if w == nil then fail(c, "unsupported type " .. tostring(typ)) end
  local r = take(c, w)
  if typ == "bool" and r:uint() > 1 then
    c.off = start
    fail(c, string.format("%s: bool byte %d is neither 0 nor 1", name, r:uint()))
  end
  if t ~= nil then
    t:add(PF[pf], r)
    if f ~= nil and PF_SPEC[pf][5] then
      local it = t:add(G.error_code, r)
      it:set_generated()
    end
  end
end

local function walk_field(c, t, f, v, ctx)
  local name, pf, typ, arr = f[1], f[2], f[3], f[4]
  local compact = in_range(f[12], f[13], v)
  local nullable = in_range(f[7], f[8], v)
  local start = c.off
  if arr then
    local n = read_len(c, compact, 4)
    if n < -1 or (n == -1 and not nullable) then
      c.off = start
      fail(c, string.format("%s: invalid count %d", name, n))
    end
    if n == -1 then
      add_null(t, pf, rg(c, start, c.off - start), name)
      return
    end
    if n > left(c) then fail(c, string.format("%s: count %d exceeds the %d bytes left", name, n, left(c))) end
    local at = nil
    if t ~= nil then
      if typ == "struct" then
        at = t:add(PF[pf], rg(c, start, c.off - start))
      else
        at = t:add(G.array, rg(c, start, c.off - start))
      end
      at:set_text(string.format("%s: %d element%s", name, n, n == 1 and "" or "s"))
    end
    for i = 0, n - 1 do
      if typ == "struct" then
        local es = c.off
        local et = nil
        if at ~= nil then
          et = at:add(G.element, rg(c, es, 0))
          et:set_text(string.format("[%d]", i))
        end
        walk_fields(c, et, f[14], v, ctx)
        if et ~= nil then et:set_len(c.off - es) end
      else
        read_prim(c, at, f, pf, typ, compact, false, name)
      end
    end
    if at ~= nil then at:set_len(c.off - start) end
    return
  end
  if typ == "struct" then
    if nullable then
      local m = fixed_int(c, 1)
      if m == -1 then
        add_null(t, pf, rg(c, start, 1), name)
        return
      end
      if m ~= 1 then
        c.off = start
        fail(c, string.format("%s: null marker %d is neither -1 nor 1", name, m))
      end
    end
    local st = nil
    if t ~= nil then st = t:add(PF[pf], rg(c, start, 0)) end
    walk_fields(c, st, f[14], v, ctx)
    if st ~= nil then st:set_len(c.off - start) end
    return
  end
  if typ == "rec" then
    local n = read_len(c, compact, 4)
    if n < -1 or (n == -1 and not nullable) then
      c.off = start
      fail(c, string.format("%s: invalid length %d", name, n))
    end
    if n == -1 then
      add_null(t, pf, rg(c, start, c.off - start), name)
      return
    end
    if n > left(c) then fail(c, string.format("%s: length %d exceeds the %d bytes left", name, n, left(c))) end
    local rt = nil
    if t ~= nil then
      rt = t:add(PF[pf], rg(c, start, c.off - start + n))
    end
    local saved = c.lim
    c.lim = c.off + n
    walk_records(c, rt, ctx)
    c.lim = saved
    return
  end
  local data_off, n, it = read_prim(c, t, f, pf, typ, compact, nullable, name)
  if data_off ~= nil and ctx.nested ~= nil and ctx.nested.field == name then
    -- An Envelope's forwarded message (KIP-590): a whole request or response without its size.
    ctx.nested.fn(c.tvb, data_off, n, it)
  end
end

-- A struct's tagged fields: a count, then tag, size and value of each, tags ascending.
local function walk_tags(c, t, fields, v, ctx)
  local start = c.off
  local n, nr = uvarint(c)
  if n > left(c) then fail(c, string.format("%d tagged fields claimed with %d bytes left", n, left(c))) end
  add(t, G.tagged_fields, nr)
  local last = -1
  for i = 1, n do
    local tag, tr = uvarint(c)
    if tag > 2147483647 or tag <= last then fail(c, string.format("tag %d out of order (after %d)", tag, last)) end
    last = tag
    local size, sr = uvarint(c)
    if size > left(c) then fail(c, string.format("tag %d: size %d exceeds the %d bytes left", tag, size, left(c))) end
    local f = nil
    for _, g in ipairs(fields) do
      if g[11] == tag and in_range(g[9], g[10], v) and v >= g[5] and v <= g[6] then f = g end
    end
    add(t, G.tag, tr)
    add(t, G.tag_size, sr)
    local saved = c.lim
    c.lim = c.off + size
    if f ~= nil then
      walk_field(c, t, f, v, ctx)
      if c.off ~= c.lim then fail(c, string.format("%s: %d bytes left unread of the %d of its tag", f[1], c.lim - c.off, size)) end
    else
      local r = take(c, size)
      if t ~= nil and size > 0 then -- an empty one is its tag and size alone, as the decoder shows it
        local it = t:add(G.unknown_tag, r)
        it:prepend_text(string.format("Tag %d: ", tag))
      end
    end
    c.lim = saved
  end
end

walk_fields = function(c, t, fields, v, ctx)
  for _, f in ipairs(fields) do
    if v >= f[5] and v <= f[6] and not in_range(f[9], f[10], v) then
      walk_field(c, t, f, v, ctx)
    end
  end
  if ctx.flex then walk_tags(c, t, fields, v, ctx) end
end

-- Records: sized bytes (varint or int32 length, -1 null).
local function sized_bytes(c, t, pf, abbrev, varint_len, nullable, name, is_string)
  local start = c.off
  local n
  if varint_len then
    n = varint(c)
  else
    n = fixed_int(c, 4)
  end
  if n < -1 or (n == -1 and not nullable) then
    c.off = start
    fail(c, string.format("%s: invalid length %d", name, n))
  end
  if n == -1 then
    if t ~= nil then
      local it = t:add(G.null, rg(c, start, c.off - start), abbrev)
      it:set_text(name .. ": null")
    end
    return
  end
  if n > left(c) then fail(c, string.format("%s: length %d exceeds the %d bytes left", name, n, left(c))) end
  local r = take(c, n)
  if t ~= nil then
    if is_string then t:add_packet_field(pf, r, ENC_UTF_8) else t:add(pf, r) end
  end
end

local function uncompress(c, codec, r)
  if codec ~= 1 or r:len() == 0 then return nil end
  local ok, u = pcall(function() return r:uncompress("Decompressed records (gzip)") end)
  if ok and u ~= nil then return u end
  return nil
end

local function walk_record(c, t, i)
  local start = c.off
  local size, sr = varint(c)
  if size < 0 then fail(c, string.format("record size %d", size)) end
  if size > left(c) then fail(c, string.format("record size %d exceeds the %d bytes left", size, left(c))) end
  local rt = nil
  if t ~= nil then
    rt = t:add(G.record, rg(c, start, 0))
    rt:set_text(string.format("Record [%d]", i))
    rt:add(G.r_length, sr, size)
  end
  local saved = c.lim
  c.lim = c.off + size
  add(rt, G.r_attributes, take(c, 1))
  local td, tr = varint(c)
  add(rt, G.r_timestamp_delta, tr, Int64.new(td))
  local od, orr = varint(c)
  add(rt, G.r_offset_delta, orr, Int64.new(od))
  sized_bytes(c, rt, G.r_key, "kafkagrid.record.key", true, true, "Key")
  sized_bytes(c, rt, G.r_value, "kafkagrid.record.value", true, true, "Value")
  local hs = c.off
  local n, hr = varint(c)
  if n < 0 then c.off = hs; fail(c, string.format("header count %d", n)) end
  if n > left(c) then fail(c, string.format("header count %d exceeds the %d bytes left", n, left(c))) end
  add(rt, G.r_headers, hr, n)
  for j = 0, n - 1 do
    sized_bytes(c, rt, G.h_key, "kafkagrid.record.header.key", true, false, "Header key", true)
    sized_bytes(c, rt, G.h_value, "kafkagrid.record.header.value", true, true, "Header value")
  end
  if c.off ~= c.lim then fail(c, string.format("%d bytes left unread in the record", c.lim - c.off)) end
  c.lim = saved
  if rt ~= nil then rt:set_len(c.off - start) end
end

local function walk_batch(c, t, ctx)
  local start = c.off
  if left(c) < 61 then fail(c, string.format("%d bytes left, a record batch needs at least 61", left(c))) end
  local bt = nil
  if t ~= nil then bt = t:add(G.batch, rg(c, start, 0)) end
  add(bt, G.b_base_offset, take(c, 8))
  local size, sr = fixed_int(c, 4)
  add(bt, G.b_length, sr)
  if size < 0 or size > left(c) then c.off = c.off - 4; fail(c, string.format("batch length %d with %d bytes left", size, left(c) - 4)) end
  local saved = c.lim
  c.lim = c.off + size
  add(bt, G.b_leader_epoch, take(c, 4))
  local magic, mr = fixed_int(c, 1)
  add(bt, G.b_magic, mr)
  if magic ~= 2 then c.off = c.off - 1; fail(c, string.format("magic %d, only 2 is supported", magic)) end
  local crc_off = c.off
  add(bt, G.b_crc, take(c, 4))
  local crc_start = c.off
  local attrs, ar = fixed_int(c, 2)
  if bt ~= nil then
    local it = bt:add(G.b_attributes, ar)
    it:add(G.b_codec, ar)
  end
  add(bt, G.b_last_offset_delta, take(c, 4))
  add(bt, G.b_base_timestamp, take(c, 8))
  add(bt, G.b_max_timestamp, take(c, 8))
  add(bt, G.b_producer_id, take(c, 8))
  add(bt, G.b_producer_epoch, take(c, 2))
  add(bt, G.b_base_sequence, take(c, 4))
  local count, cr = fixed_int(c, 4)
  add(bt, G.b_records, cr)
  if count < 0 then c.off = c.off - 4; fail(c, string.format("invalid record count %d", count)) end
  local codec = attrs % 8
  if attrs < 0 then codec = (attrs + 65536) % 8 end
  if codec ~= 0 then
    local r = rg(c, c.off, left(c))
    local u = uncompress(c, codec, r)
    if u == nil then
      if bt ~= nil then
        local it = bt:add(G.compressed, r)
        it:set_text(string.format("Records: compressed with %s, %d bytes", CODECS[codec] or ("codec " .. codec), r:len()))
        if codec == 1 then it:append_text(" (cannot decompress)") end
        it:add_proto_expert_info(E.compressed)
      end
    else
      if count > u:len() / 7 then fail(c, string.format("record count %d, but the %d decompressed bytes hold fewer", count, u:len())) end
      local inner = {tvb = u, off = 0, lim = u:len()}
      if bt ~= nil then
        local it = bt:add(G.compressed, r)
        it:set_text(string.format("Records: compressed with gzip, %d → %d bytes", r:len(), u:len()))
      end
      local ok, err = pcall(function()
        for i = 0, count - 1 do walk_record(inner, bt, i) end
        if inner.off ~= inner.lim then fail(inner, string.format("%d bytes after the last record", inner.lim - inner.off)) end
      end)
      if not ok then
        if type(err) == "table" then err.msg = "in the gzip-decompressed records: " .. err.msg end
        error(err, 0)
      end
    end
    c.off = c.lim
  else
    for i = 0, count - 1 do walk_record(c, bt, i) end
    if c.off ~= c.lim then fail(c, string.format("record count %d, but %d bytes of the batch follow its last record", count, c.lim - c.off)) end
  end
  check_crc(c, CRC32C, crc_off, crc_start, "batch")
  c.lim = saved
  if bt ~= nil then bt:set_len(c.off - start) end
end

local walk_message
walk_message = function(c, t, in_wrapper)
  local start = c.off
  local mt = nil
  if t ~= nil then mt = t:add(G.message, rg(c, start, 0)) end
  add(mt, G.m_offset, take(c, 8))
  local size, sr = fixed_int(c, 4)
  add(mt, G.m_size, sr)
  if size < 0 or size > left(c) then c.off = c.off - 4; fail(c, string.format("message size %d with %d bytes left", size, left(c) + 4)) end
  local saved = c.lim
  c.lim = c.off + size
  local crc_off = c.off
  add(mt, G.m_crc, take(c, 4))
  local crc_start = c.off
  local magic, mr = fixed_int(c, 1)
  add(mt, G.m_magic, mr)
  if magic ~= 0 and magic ~= 1 then c.off = c.off - 1; fail(c, string.format("magic %d in a message set, want 0 or 1", magic)) end
  local attrs, ar = fixed_int(c, 1)
  add(mt, G.m_attributes, ar)
  if magic == 1 then add(mt, G.m_timestamp, take(c, 8)) end
  sized_bytes(c, mt, G.m_key, "kafkagrid.message.key", false, true, "Key")
  local codec = (attrs + 256) % 8
  if codec ~= 0 then
    if in_wrapper then fail(c, "a compressed message inside a compressed wrapper") end
    if codec > 3 then fail(c, string.format("codec %s in a legacy message", CODECS[codec] or codec)) end
    local n = fixed_int(c, 4)
    if n < 0 then fail(c, "a compressed wrapper with a null value") end
    if n > left(c) then fail(c, string.format("value length %d exceeds the %d bytes left", n, left(c))) end
    local r = take(c, n)
    local u = uncompress(c, codec, r)
    if u == nil then
      if mt ~= nil then
        local it = mt:add(G.compressed, r)
        it:set_text(string.format("Value: compressed with %s, %d bytes", CODECS[codec], n))
        if codec == 1 then it:append_text(" (cannot decompress)") end
        it:add_proto_expert_info(E.compressed)
      end
    else
      if mt ~= nil then
        local it = mt:add(G.compressed, r)
        it:set_text(string.format("Value: compressed with gzip, %d → %d bytes", n, u:len()))
      end
      local inner = {tvb = u, off = 0, lim = u:len()}
      local ok, err = pcall(function()
        while inner.off < inner.lim do walk_message(inner, mt, true) end
      end)
      if not ok then
        if type(err) == "table" then err.msg = "in the gzip-decompressed messages: " .. err.msg end
        error(err, 0)
      end
    end
  else
    sized_bytes(c, mt, G.m_value, "kafkagrid.message.value", false, true, "Value")
  end
  if c.off ~= c.lim then fail(c, string.format("%d bytes left unread in the message", c.lim - c.off)) end
  check_crc(c, CRC32, crc_off, crc_start, "message")
  c.lim = saved
  if mt ~= nil then mt:set_len(c.off - start) end
end

walk_records = function(c, t, ctx)
  if left(c) > 16 and c.tvb:range(c.off + 16, 1):int() < 2 then
    while c.off < c.lim do walk_message(c, t, false) end
    return
  end
  while c.off < c.lim do walk_batch(c, t, ctx) end
end


-- Conversations: per TCP stream, the requests by correlation id; per response frame and
-- correlation id, the request it answers (kept from the first pass).
local convs, answered = {}, {}
function kg.init()
  convs, answered = {}, {}
end

local f_tcp_stream = Field.new("tcp.stream")

local function stream_id(pinfo)
  local s = f_tcp_stream()
  if s ~= nil then return tostring(s.value) end
  return tostring(pinfo.src) .. ":" .. pinfo.src_port .. "-" .. tostring(pinfo.dst) .. ":" .. pinfo.dst_port
end

local ports_set = {}
local function is_kafka_port(p) return ports_set[p] == true end

-- The body of a message at version v; t nil is a dry run.
local function walk_body(c, t, var, v, nested)
  local ctx = {flex = in_range(var.flo, var.fhi, v), nested = nested}
  walk_fields(c, t, var.fields, v, ctx)
end

-- The message an Envelope forwards, from off to off+n of tvb, under item: a request (header
-- and body) whose API and version go to entry.nested, or a response read at them.
local function forwarded(tvb, off, n, item, request, entry)
  if item == nil then return end
  local c = {tvb = tvb, off = off, lim = off + n}
  if request then
    local ht = item:add(G.header, rg(c, off, 0))
    local key, kr = fixed_int(c, 2)
    ht:add(G.api_key, kr)
    local ver, vr = fixed_int(c, 2)
    ht:add(G.api_version, vr)
    ht:add(G.correlation_id, take(c, 4))
    local api = APIS[key]
    local var, hv = nil, 1
    if api ~= nil then
      var = api.req_by[ver]
      if api.hvq[ver] ~= nil then hv = api.hvq[ver] end
    end
    if hv >= 1 then
      local cs = c.off
      local cn = fixed_int(c, 2)
      if cn < -1 then c.off = cs; fail(c, "client id: invalid length " .. cn) end
      if cn >= 0 then
        if cn > left(c) then fail(c, string.format("client id: length %d exceeds the %d bytes left", cn, left(c))) end
        ht:add_packet_field(G.client_id, take(c, cn), ENC_UTF_8)
      else
        ht:add(G.null, rg(c, cs, 2), "kafkagrid.client_id"):set_text("Client id: null")
      end
    end
    if hv >= 2 then walk_tags(c, ht, {}, 0, {}) end
    ht:set_len(c.off - off)
    if entry ~= nil then entry.nested = {key = key, ver = ver} end
    item:append_text(string.format(" (%s v%d request)", API_NAMES[key] or ("API key " .. key), ver))
    if var == nil then return end
    local bs = c.off
    local bt = item:add(G.body, rg(c, bs, 0))
    walk_body(c, bt, var, ver)
    bt:set_len(c.off - bs)
  else
    local nested = entry and entry.nested
    if nested == nil then return end
    local api = APIS[nested.key]
    local ht = item:add(G.header, rg(c, off, 0))
    ht:add(G.correlation_id, take(c, 4))
    ht:add(G.api_key, rg(c, off, 0), nested.key):set_generated()
    ht:add(G.api_version, rg(c, off, 0), nested.ver):set_generated()
    if api == nil or api.resp_by[nested.ver] == nil then return end
    if api.hvr[nested.ver] >= 1 then walk_tags(c, ht, {}, 0, {}) end
    ht:set_len(c.off - off)
    item:append_text(string.format(" (%s v%d response)", API_NAMES[nested.key], nested.ver))
    local bs = c.off
    local bt = item:add(G.body, rg(c, bs, 0))
    walk_body(c, bt, api.resp_by[nested.ver], nested.ver)
    bt:set_len(c.off - bs)
  end
  if c.off ~= c.lim then fail(c, string.format("%d bytes after the end of the forwarded message", c.lim - c.off)) end
end

local function try(fn)
  local ok, err = pcall(fn)
  if ok then return nil end
  if type(err) == "table" and err.kafkagrid then return err end
  return {msg = "dissector error: " .. tostring(err), off = nil}
end

local function mark(item, pinfo, err, tvb)
  local where = ""
  if err.off ~= nil then where = string.format(" at offset %d", err.off) end
  item:add_proto_expert_info(E.malformed, "Malformed: " .. err.msg .. where)
end

-- The Info column: the first frame of a packet sets it, the others follow it. The mark is in
-- the packet's private table, which every dissection of the packet starts empty (Wireshark
-- dissects a packet again when it is selected).
local function set_info(pinfo, text)
  if pinfo.private.kafkagrid_info == nil then
    pinfo.private.kafkagrid_info = "1"
    pinfo.cols.info:set(text)
  else
    pinfo.cols.info:append(", " .. text)
  end
end

-- One frame: the int32 size, the header, the body.
local function dissect_frame(tvb, pinfo, tree)
  local total = tvb:len()
  local top = tree:add(kg, tvb:range(0, total))
  local c = {tvb = tvb, off = 0, lim = total}
  local request = pinfo.dst_port == pinfo.match_uint or (is_kafka_port(pinfo.dst_port) and not is_kafka_port(pinfo.src_port))
  local err = try(function()
    local size, sr = fixed_int(c, 4)
    top:add(G.size, sr)
    if size < 0 or size > kg.prefs.max_frame then fail(c, string.format("frame size %d", size)) end
    c.lim = math.min(total, 4 + size)
    if 4 + size > total then fail(c, string.format("frame of %d bytes cut short at %d", size, total - 4)) end
  end)
  if err ~= nil then
    mark(top, pinfo, err, tvb)
    set_info(pinfo, "Malformed Kafka frame")
    return
  end
  local sid = stream_id(pinfo)
  local conv = convs[sid]
  if conv == nil then
    conv = {}
    convs[sid] = conv
  end
  if request then
    top:add(G.request, rg(c, 0, 0)):set_hidden()
    local ht = top:add(G.header, rg(c, 4, 0))
    local key, ver, corr, api, var
    err = try(function()
      local kr = take(c, 2)
      key = kr:int()
      ht:add(G.api_key, kr)
      local vr = take(c, 2)
      ver = vr:int()
      ht:add(G.api_version, vr)
      local cr = take(c, 4)
      corr = cr:int()
      ht:add(G.correlation_id, cr)
      api = APIS[key]
      local hv = 1
      if api ~= nil then
        var = api.req_by[ver]
        if api.hvq[ver] ~= nil then hv = api.hvq[ver] end
      end
      ht:add(G.header_version, rg(c, 4, 0), hv):set_generated()
      if hv >= 1 then
        local cs = c.off
        local n = fixed_int(c, 2)
        if n < -1 then c.off = cs; fail(c, "client id: invalid length " .. n) end
        if n >= 0 then
          if n > left(c) then fail(c, string.format("client id: length %d exceeds the %d bytes left", n, left(c))) end
          ht:add_packet_field(G.client_id, take(c, n), ENC_UTF_8)
        else
          ht:add(G.null, rg(c, cs, 2), "kafkagrid.client_id"):set_text("Client id: null")
        end
      end
      if hv >= 2 then walk_tags(c, ht, {}, 0, {}) end
    end)
    ht:set_len(c.off - 4)
    local name = API_NAMES[key] or ("API key " .. tostring(key))
    local text = string.format("%s v%s request (corr %s)", name, tostring(ver), tostring(corr))
    if err ~= nil then
      mark(top, pinfo, err, tvb)
      set_info(pinfo, text .. " [malformed]")
      return
    end
    top:append_text(string.format(", %s v%d request", name, ver))
    -- Filled on the first pass; again on a later pass that finds the table empty (tshark -2,
    -- and a redissection, start from kg.init).
    if not pinfo.visited or conv[corr] == nil then conv[corr] = {key = key, ver = ver, frame = pinfo.number} end
    set_info(pinfo, text)
    if var == nil then
      local ut = top:add(G.unread, rg(c, c.off, left(c)))
      if api == nil then
        ut:add_proto_expert_info(E.unknown, string.format("API key %d is not in Kafka %s", key, KG_RELEASES))
      else
        ut:add_proto_expert_info(E.unknown, string.format("%s v%d is not in Kafka %s", name, ver, KG_RELEASES))
      end
      return
    end
    local bt = top:add(G.body, rg(c, c.off, 0))
    bt:set_text(string.format("%s request v%d (Kafka %s)", name, ver, var.release))
    local bs = c.off
    local nested = nil
    if key == 58 then
      local entry = conv[corr]
      nested = {field = "RequestData", fn = function(tv, off, n, item) forwarded(tv, off, n, item, true, entry) end}
    end
    err = try(function() walk_body(c, bt, var, ver, nested) end)
    bt:set_len(c.off - bs)
    if err ~= nil then
      mark(top, pinfo, err, tvb)
      pinfo.cols.info:append(" [malformed]")
    elseif c.off ~= c.lim then
      top:add(G.unread, rg(c, c.off, c.lim - c.off)):add_proto_expert_info(E.trailing,
        string.format("%d bytes after the end of the %s v%d request", c.lim - c.off, name, ver))
    end
    return
  end
  -- A response.
  top:add(G.response, rg(c, 0, 0)):set_hidden()
  local ht = top:add(G.header, rg(c, 4, 0))
  local corr
  err = try(function()
    local cr = take(c, 4)
    corr = cr:int()
    ht:add(G.correlation_id, cr)
  end)
  if err ~= nil then
    ht:set_len(c.off - 4)
    mark(top, pinfo, err, tvb)
    set_info(pinfo, "Response [malformed]")
    return
  end
  local akey = tostring(pinfo.number) .. ":" .. tostring(corr)
  local req = answered[akey]
  if req == nil then
    req = conv[corr]
    if req ~= nil then answered[akey] = req end
  end
  if req == nil then
    ht:set_len(c.off - 4)
    set_info(pinfo, string.format("Response (corr %d)", corr))
    top:add(G.unread, rg(c, c.off, left(c))):add_proto_expert_info(E.unpaired)
    return
  end
  local api = APIS[req.key]
  local name = API_NAMES[req.key] or ("API key " .. tostring(req.key))
  local ver = req.ver
  ht:add(G.request_frame, rg(c, 4, 0), req.frame):set_generated()
  ht:add(G.api_key, rg(c, 4, 0), req.key):set_generated()
  local var = nil
  if api ~= nil then var = api.resp_by[ver] end
  local fallback = false
  if var ~= nil and api.v0fallback and ver > 0 and api.resp_by[0] ~= nil then
    -- KIP-511: a broker that does not speak the version asked answers in v0.
    local dry = {tvb = tvb, off = c.off, lim = c.lim}
    local e1 = try(function()
      walk_body(dry, nil, var, ver)
      if dry.off ~= dry.lim then fail(dry, "trailing bytes") end
    end)
    if e1 ~= nil then
      local dry0 = {tvb = tvb, off = c.off, lim = c.lim}
      local e0 = try(function()
        walk_body(dry0, nil, api.resp_by[0], 0)
        if dry0.off ~= dry0.lim then fail(dry0, "trailing bytes") end
      end)
      if e0 == nil then
        fallback = true
        var, ver = api.resp_by[0], 0
      end
    end
  end
  ht:add(G.api_version, rg(c, 4, 0), ver):set_generated()
  local hv = 0
  if api ~= nil and api.hvr[ver] ~= nil then hv = api.hvr[ver] end
  ht:add(G.header_version, rg(c, 4, 0), hv):set_generated()
  if hv >= 1 then
    err = try(function() walk_tags(c, ht, {}, 0, {}) end)
  end
  ht:set_len(c.off - 4)
  local text = string.format("%s v%d response (corr %d)", name, ver, corr)
  set_info(pinfo, text)
  top:append_text(string.format(", %s v%d response", name, ver))
  if err ~= nil then
    mark(top, pinfo, err, tvb)
    pinfo.cols.info:append(" [malformed]")
    return
  end
  if var == nil then
    top:add(G.unread, rg(c, c.off, left(c))):add_proto_expert_info(E.unknown,
      string.format("%s v%d is not in Kafka %s", name, ver, KG_RELEASES))
    return
  end
  local bt = top:add(G.body, rg(c, c.off, 0))
  bt:set_text(string.format("%s response v%d (Kafka %s)", name, ver, var.release))
  if fallback then
    bt:add_proto_expert_info(E.fallback, string.format("The broker answers %s v%d in v0: it does not speak v%d (KIP-511)", name, req.ver, req.ver))
  end
  local bs = c.off
  local nested = nil
  if req.key == 58 then
    nested = {field = "ResponseData", fn = function(tv, off, n, item) forwarded(tv, off, n, item, false, req) end}
  end
  err = try(function() walk_body(c, bt, var, ver, nested) end)
  bt:set_len(c.off - bs)
  if err ~= nil then
    mark(top, pinfo, err, tvb)
    pinfo.cols.info:append(" [malformed]")
  elseif c.off ~= c.lim then
    top:add(G.unread, rg(c, c.off, c.lim - c.off)):add_proto_expert_info(E.trailing,
      string.format("%d bytes after the end of the %s v%d response", c.lim - c.off, name, ver))
  end
end

local function pdu_len(tvb, pinfo, offset)
  local n = tvb:len() - offset
  if n < 4 then return -DESEGMENT_ONE_MORE_SEGMENT end
  local size = tvb:range(offset, 4):int()
  if size < 0 or size > kg.prefs.max_frame then
    return n -- not a frame: the rest of the segment is read as one, and marked
  end
  return size + 4
end

local function dissect_pdu(tvb, pinfo, tree)
  local ok, e = pcall(dissect_frame, tvb, pinfo, tree)
  if not ok then
    local it = tree:add(kg, tvb:range(0, tvb:len()))
    it:add_proto_expert_info(E.malformed, "Malformed: dissector error: " .. tostring(e))
  end
  return tvb:len()
end

function kg.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = "kafkagrid"
  dissect_tcp_pdus(tvb, tree, 4, pdu_len, dissect_pdu, true)
  return tvb:len()
end

local registered = nil
local function register_ports()
  local t = DissectorTable.get("tcp.port")
  if registered ~= nil then t:remove(registered, kg) end
  registered = kg.prefs.ports
  t:add(registered, kg)
  ports_set = {}
  for part in string.gmatch(tostring(registered), "[^,]+") do
    local lo, hi = string.match(part, "^%s*(%d+)%s*-%s*(%d+)%s*$")
    if lo ~= nil then
      for p = tonumber(lo), math.min(tonumber(hi), 65535) do ports_set[p] = true end
    else
      local p = tonumber(part)
      if p ~= nil then ports_set[p] = true end
    end
  end
end

function kg.prefs_changed()
  register_ports()
end

register_ports()
