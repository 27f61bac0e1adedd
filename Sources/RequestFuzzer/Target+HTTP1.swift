import Gateway
import HTTPTypes
import NIOCore
import NIOEmbedded

extension Target {
    /// The HTTP/1.1 pipeline `gateway serve` gives a connection (NIO's decoder, the gateway's
    /// guards, the conversion to the HTTP types, the request server), on an embedded channel, fed
    /// the input in one read and in two. Invariants: every request handed on has a method and a
    /// path whose bytes the input holds; what is written back is an HTTP/1 response.
    static func http1(seeds: [[UInt8]]) -> Target {
        let tokens = ParserTokens(
            [
                "\r\n", "\r\n\r\n", "\n", "\r", " ", "\t", ":", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "Content-Length: ", "Content-Length: 0\r\n",
                "Content-Length: 18446744073709551616\r\n", "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n",
                "Connection: close\r\n", "Connection: upgrade\r\nUpgrade: h2c\r\n", "Expect: 100-continue\r\n", "Host: \r\n", "0\r\n\r\n",
                "ffffffffffffffff\r\n", "GET ", "PUT ", "CONNECT a:1 ", "/", "*", "%00", "?", "#", "\u{0}", "\u{7F}", "\u{FF}",
            ],
            nesting: ("X: a\r\n", "")
        )
        return Target(name: "http1", seeds: seeds, tokens: tokens) { input in
            for split in [input.count, input.count / 2] {
                if let broken = feed(input, split: split) { return broken }
            }
            return nil
        }
    }

    private static func feed(_ input: [UInt8], split: Int) -> String? {
        let channel = EmbeddedChannel()
        var handedOn: [HTTPRequest] = []
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        do {
            try HTTP1PipelineProbe.install(on: channel) { handedOn.append($0) }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            for part in [input[..<split], input[split...]] where !part.isEmpty && channel.isActive {
                try channel.writeInbound(ByteBuffer(bytes: part))
                channel.embeddedEventLoop.run()
            }
        } catch {
            // A refusal the pipeline raises is an answer too (the channel closes).
        }
        for request in handedOn {
            guard contains(input, request.method.rawValue.utf8) else { return "a request was handed on with a method the input lacks" }
            // The conversion to the HTTP types percent-encodes what a path may not hold raw (`"`),
            // and gives an absolute URI without a path (`http://a?q`) the path `/`.
            if let path = request.path, path != "*", !contains(percentDecoded(input), percentDecoded(Array(path.utf8.dropFirst()))) {
                return "a request was handed on with a path the input lacks: \(path.utf8.count) bytes, \(path.prefix(40))…\(path.suffix(40))"
            }
        }
        var written: [UInt8] = []
        while true {
            if let data = try? channel.readOutbound(as: IOData.self), case .byteBuffer(let bytes) = data {
                written += Array(buffer: bytes)
            } else if let bytes = try? channel.readOutbound(as: ByteBuffer.self) {
                written += Array(buffer: bytes)
            } else {
                break
            }
        }
        if !written.isEmpty, !written.starts(with: Array("HTTP/1.1 ".utf8)), !written.starts(with: Array("HTTP/1.0 ".utf8)) {
            return "wrote something other than an HTTP/1 response: \(String(decoding: written.prefix(60), as: UTF8.self))"
        }
        return nil
    }

    /// Each `%XX` as its byte; anything else as it is.
    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                result.append(byte)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
