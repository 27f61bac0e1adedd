import MPGSAPI

extension GatewayDependencies {
    /// The sessions as every front end (and a test looking at their state) opens them: the
    /// store, the cipher, the configured lifetime and the gateway's clock.
    var sessionService: SessionService {
        SessionService(store: sessionStore, cipher: sessionCipher, lifetime: configuration.sessions.lifetime, clock: clock)
    }
}
