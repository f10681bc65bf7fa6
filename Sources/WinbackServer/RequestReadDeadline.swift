import NIOCore

/// The read timeouts of one connection, on its raw bytes (before the HTTP decoder): between requests, a
/// connection silent for ``idleTimeout`` is closed; from a request's first byte, its head and body must arrive
/// within ``requestTimeout`` (a client trickling a byte every 20 s holds nothing for long); while a request is
/// being answered, neither runs, so a slow answer is never cut off. The HTTP handler says when a request's end
/// was read (``requestRead()``) and when its answer is written (``answered()``).
final class RequestReadDeadline: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How long a connection may wait between requests.
    let idleTimeout: TimeAmount
    /// How long a request may take to arrive, from its first byte to its end.
    let requestTimeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var state = State.idle
    private var channel: (any Channel)?

    private enum State {
        /// Between requests: the idle timer runs.
        case idle
        /// A request's bytes are arriving: its deadline runs.
        case reading
        /// Requests are being answered: no timer.
        case answering(Int)
    }

    init(idleTimeout: TimeAmount, requestTimeout: TimeAmount) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        restart(idleTimeout, on: context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .idle = state {
            state = .reading
            restart(requestTimeout, on: context.eventLoop)
        }
        context.fireChannelRead(data)
    }

    /// A request's end was read: no timer until its answer is written.
    func requestRead() {
        timer?.cancel()
        timer = nil
        switch state {
        case .answering(let count): state = .answering(count + 1)
        case .idle, .reading: state = .answering(1)
        }
    }

    /// A request's answer is written: with none left to answer, the idle timer starts again.
    func answered() {
        guard case .answering(let count) = state else { return }
        guard count <= 1 else {
            state = .answering(count - 1)
            return
        }
        state = .idle
        if let channel { restart(idleTimeout, on: channel.eventLoop) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        channel = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    private func restart(_ timeout: TimeAmount, on eventLoop: any EventLoop) {
        timer?.cancel()
        guard let channel else { return }
        timer = eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
