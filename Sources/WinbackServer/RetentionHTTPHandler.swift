import NIOCore
import NIOHTTP1

/// One connection's HTTP/1.1 exchange: gathers a request's body (at most 64 KiB: a longer one is answered 413
/// at once and the connection closed), asks the ``RetentionService``, writes its reply. NIO's pipelining
/// helper upstream keeps the responses of pipelined requests in order. Bytes that are not HTTP (junk after a
/// valid request in the same write) are answered 400 and close the connection — after the answers of the
/// requests before them are written, never instead of them.
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
    private let limit: ConnectionLimit
    private let deadline: RequestReadDeadline
    private let executor: RequestExecutor
    private var state = State.idle
    /// Requests of this connection read and not yet answered.
    private var answering = 0
    /// Bytes that are not HTTP arrived while requests were being answered: 400 and close once they are.
    private var isBadRequestPending = false
    /// For a 413: its reply's write once made, and whether the request's end arrived; both, and it closes.
    private var oversized: (written: EventLoopFuture<Void>?, isRead: Bool) = (nil, false)

    init(
        service: RetentionService, tracker: ConnectionTracker, limit: ConnectionLimit, deadline: RequestReadDeadline,
        executor: RequestExecutor
    ) {
        self.executor = executor
        self.service = service
        self.tracker = tracker
        self.limit = limit
        self.deadline = deadline
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
            deadline.requestRead()
            answer(head, body: Array(body.readableBytesView), context: context)
        case (.end, .discarding):
            deadline.requestRead()
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

    /// Asks the service on a task (on the server's ``RequestExecutor``) and writes its reply on the event loop;
    /// `closing` says the connection ends after this request whatever the client asked.
    private func answer(_ head: HTTPRequestHead, body: [UInt8]?, context: ChannelHandlerContext, closing: Bool = false) {
        tracker.begin()
        limit.beginAnswer(context.channel)
        answering += 1
        let service = service
        let method = head.method.rawValue
        let target = head.uri
        let promise = context.eventLoop.makePromise(of: ServeReply.self)
        Task(executorPreference: executor) { promise.succeed(await service.handle(method: method, target: target, body: body)) }
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
        let (tracker, limit, deadline) = (tracker, limit, deadline)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let channel = context.channel
        written.whenComplete { _ in
            tracker.end()
            limit.endAnswer(channel)
        }
        answering -= 1
        deadline.answered()
        if isBadRequestPending, answering == 0 {
            refuseBadRequest(context: context)
        } else if closeAfterwards {
            written.whenComplete { _ in channel.close(promise: nil) }
        } else if case .discarding = state {
            oversized.written = written
            if oversized.isRead { written.whenComplete { _ in channel.close(promise: nil) } }
        }
    }

    /// Bytes that are not HTTP: 400 and close, once the requests read before them are answered.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.close(promise: nil)
            return
        }
        guard !isBadRequestPending else { return }
        isBadRequestPending = true
        if answering == 0 { refuseBadRequest(context: context) }
    }

    /// Writes a 400 that closes the connection, then closes it.
    private func refuseBadRequest(context: ChannelHandlerContext) {
        let body = Array(#"{"error":"bad_request"}"#.utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
