import NIOCore
import NIOHTTP1
import WinbackJobs

/// One connection's HTTP/1.1 exchange: gathers a request's body (at most 64 KiB: a longer one is answered 413
/// at once and the connection closed), asks the ``RetentionService``, writes its reply. NIO's pipelining
/// helper upstream keeps the responses of pipelined requests in order.
final class RetentionHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request head.
        case idle
        /// Reading the body of `head`.
        case reading(head: HTTPRequestHead, body: ByteBuffer)
        /// The body was too large: answered, the rest of the request is read and dropped, then the connection
        /// closes (closing before would reset the connection under a client still sending, losing the 413).
        case discarding
    }

    private let service: RetentionService
    private let tracker: ConnectionTracker
    private var state = State.idle
    /// For a 413: its reply's write once made, and whether the request's end arrived; both, and it closes.
    private var oversized: (written: EventLoopFuture<Void>?, isRead: Bool) = (nil, false)

    init(service: RetentionService, tracker: ConnectionTracker) {
        self.service = service
        self.tracker = tracker
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            let declared = head.headers.first(name: "content-length").flatMap(Int.init) ?? 0
            if declared > RetentionService.maximumBodyBytes {
                refuseOversized(head, context: context)
            } else {
                state = .reading(head: head, body: context.channel.allocator.buffer(capacity: declared))
            }
        case (.body(var chunk), .reading(let head, var body)):
            guard body.readableBytes + chunk.readableBytes <= RetentionService.maximumBodyBytes else {
                refuseOversized(head, context: context)
                return
            }
            state = .idle  // drop the reference before appending, so `body` is not copied
            body.writeBuffer(&chunk)
            state = .reading(head: head, body: body)
        case (.end, .reading(let head, let body)):
            state = .idle
            answer(head, body: Array(body.readableBytesView), context: context)
        case (.end, .discarding):
            oversized.isRead = true
            let channel = context.channel
            oversized.written?.whenComplete { _ in channel.close(promise: nil) }
        case (.body, _), (.end, _):
            break
        }
    }

    /// Answers 413 without keeping the body; the connection closes at the request's end.
    private func refuseOversized(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        state = .discarding
        oversized = (nil, false)
        answer(head, body: nil, context: context, closing: true)
    }

    /// Asks the service on a task and writes its reply on the event loop; `closing` says the connection ends
    /// after this request whatever the client asked.
    private func answer(_ head: HTTPRequestHead, body: [UInt8]?, context: ChannelHandlerContext, closing: Bool = false) {
        tracker.begin()
        let service = service
        let method = head.method.rawValue
        let target = head.uri
        let promise = context.eventLoop.makePromise(of: ServeReply.self)
        promise.completeWithTask { await service.handle(method: method, target: target, body: body) }
        let wantsKeepAlive = head.isKeepAlive && !closing
        promise.futureResult.assumeIsolated().whenSuccess { reply in
            // Draining (SIGTERM) closes every connection after its answer; a 413 closes at the request's end.
            let keepAlive = wantsKeepAlive && !self.tracker.isDraining
            self.write(reply, version: head.version, keepAlive: keepAlive, closeAfterwards: !keepAlive && !closing, context: context)
        }
    }

    /// Writes `reply`; `closeAfterwards` closes the connection once it is written.
    private func write(
        _ reply: ServeReply, version: HTTPVersion, keepAlive: Bool, closeAfterwards: Bool, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: reply.contentType)
        headers.add(name: "Content-Length", value: String(reply.body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if let allow = reply.allow { headers.add(name: "Allow", value: allow) }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: reply.body.count)
        buffer.writeBytes(reply.body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let tracker = tracker
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        written.whenComplete { _ in tracker.end() }
        let channel = context.channel
        if closeAfterwards {
            written.whenComplete { _ in channel.close(promise: nil) }
        } else if case .discarding = state {
            oversized.written = written
            if oversized.isRead { written.whenComplete { _ in channel.close(promise: nil) } }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
