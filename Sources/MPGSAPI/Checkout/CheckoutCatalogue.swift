/// The fields INITIATE_CHECKOUT (and CREATE_CHECKOUT_SESSION below version 63) takes besides the
/// order, billing, shipping, customer and agreement groups, which come from the transaction
/// request's catalogue as AUTHORIZE, PAY and VERIFY take them (the checkout's payment is one of
/// those). Same line format as `transaction-request.catalogue`; the operations column is `K`
/// (the checkout session), which no transaction takes.
///
/// Source: the public "Mastercard Gateway API reference", Initiate Checkout (version 100) and
/// Create Checkout Session (version 62) as far as plugins and the integration guide show them
/// (Deploy/docs/hosted-checkout-reference-notes.md §1). Names and formats only.
enum CheckoutCatalogue {
    static let text = """
        apiOperation enum:INITIATE_CHECKOUT|CREATE_CHECKOUT_SESSION K
        correlationId text:1-100 K
        partnerSolutionId text:1-40 K
        checkoutMode enum:WEBSITE|PAYMENT_LINK K min=63
        paymentLink.expiryDateTime datetime K min=63
        paymentLink.numberOfAllowedAttempts integer:1-25 K min=63
        initiator.userId text:1-256 K min=62
        userId text:1-256 K max=61
        locale text:2-5 K
        interaction.operation enum:AUTHORIZE|PURCHASE|VERIFY|NONE K
        interaction.returnUrl url K
        interaction.cancelUrl url K
        interaction.timeoutUrl url K
        interaction.timeout integer:60-86400 K
        interaction.locale text:2-5 K
        interaction.country upper:3-3 K
        interaction.theme text:1-50 K
        interaction.style.theme text:1-50 K
        interaction.style.accentColor text:1-20 K
        interaction.merchant.name text:1-40 K
        interaction.merchant.url url K
        interaction.merchant.logo url K
        interaction.merchant.email email K
        interaction.merchant.phone text:1-20 K
        interaction.merchant.address.line1 text:1-100 K
        interaction.merchant.address.line2 text:1-100 K
        interaction.merchant.address.line3 text:1-100 K
        interaction.merchant.address.line4 text:1-100 K
        interaction.displayControl.billingAddress enum:HIDE|MANDATORY|OPTIONAL|READ_ONLY K
        interaction.displayControl.customerEmail enum:HIDE|MANDATORY|OPTIONAL|READ_ONLY K
        interaction.displayControl.shipping enum:HIDE|READ_ONLY K
        interaction.displayControl.orderSummary enum:HIDE|SHOW|SHOW_PARTIAL K
        interaction.displayControl.paymentTerms enum:HIDE|SHOW_IF_SUPPORTED K
        interaction.displayControl.paymentConfirmation enum:HIDE|SHOW K
        interaction.displayControl.confirmAchAccountNumber enum:HIDE|SHOW K
        interaction.displayControl.cardSecurityCode enum:HIDE|MANDATORY|OPTIONAL K
        transaction.reference text:1-40 K
        transaction.source enum:INTERNET|MOTO|MAIL_ORDER|TELEPHONE_ORDER|CALL_CENTRE K
        """

    /// The groups laid in from the transaction catalogue, as a payment takes them.
    static let paymentGroups: Set<String> = ["order", "billing", "customer", "shipping", "agreement"]

    static let catalogue: RequestCatalogue = {
        do {
            return try RequestCatalogue(parsing: text, operationLetters: ["K": .pay])
        } catch {
            preconditionFailure("CheckoutCatalogue: \(error)")
        }
    }()
}

extension FieldShape {
    /// `POST .../session` with `apiOperation` INITIATE_CHECKOUT or CREATE_CHECKOUT_SESSION at
    /// API `version`: the checkout's own fields and the payment's groups.
    static func initiateCheckout(version: Int) -> FieldShape {
        let own = CheckoutCatalogue.catalogue.shape(operations: [.pay], version: version, groups: ownGroups)
        let payment = RequestCatalogue.transactionRequest.shape(
            operations: [.authorize, .pay, .verify],
            version: version,
            groups: CheckoutCatalogue.paymentGroups
        )
        guard case .object(var members, _) = own, case .object(let groups, _) = payment else { return .object([:]) }
        for (name, shape) in groups {
            // `transaction` is the checkout's own; the rest are the payment's.
            members[name] = members[name].map { FieldShape.merged($0, shape) } ?? shape
        }
        return .object(members)
    }

    /// Every top-level name of the checkout catalogue.
    private static let ownGroups: Set<String> = Set(
        CheckoutCatalogue.catalogue.fields.map { String($0.components[0]) }
    )

    /// Two object shapes' members together (the first's win on a clash).
    private static func merged(_ first: FieldShape, _ second: FieldShape) -> FieldShape {
        guard case .object(let a, let chosen) = first, case .object(let b, _) = second else { return first }
        return .object(a.merging(b) { mine, _ in mine }, members: chosen)
    }
}
