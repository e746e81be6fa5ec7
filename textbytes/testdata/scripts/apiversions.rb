require 'socket'
s = TCPSocket.new('localhost', 9092)
s.write("\x00\x00\x00\x0c" + "\x00\x12\x00\x00\x00\x00\x00\x01\x00\x02kg")
puts s.read(4).unpack('N')
