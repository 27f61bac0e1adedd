extension JSONValue {
    /// `self` with `other` laid over it: objects merge member by member, anything else is replaced.
    /// The response echo's rule, shared by the core (a confirmed browser payment keeps its
    /// initiating request's echo under the confirmation's) and the MPGS front end.
    package func overlaid(with other: JSONValue) -> JSONValue {
        guard case .object(var base) = self, case .object(let top) = other else { return other }
        // Most requests echo nothing: then the response is the gateway's own, unchanged.
        if base.isEmpty { return other }
        for (name, value) in top {
            base[name] = base[name].map { $0.overlaid(with: value) } ?? value
        }
        return .object(base)
    }
}
