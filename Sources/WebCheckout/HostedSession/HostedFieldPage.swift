/// One Hosted Session field: the page each iframe `session.js` makes shows (the gateway's origin,
/// so the merchant's page cannot read what is typed), and the script that runs it.
enum HostedFieldPage {
    /// The fields a card form has, with the words that name them (the iframe's title, the input's
    /// label) and the input's `autocomplete` token.
    static let fields: [String: (label: String, autocomplete: String, numeric: Bool, maxLength: Int)] = [
        "number": ("card number", "cc-number", true, 23),
        "securityCode": ("security code", "cc-csc", true, 4),
        "expiryMonth": ("expiry month", "cc-exp-month", true, 2),
        "expiryYear": ("expiry year", "cc-exp-year", true, 4),
        "nameOnCard": ("name on card", "cc-name", false, 256),
    ]

    static func html(field: String) -> String? {
        guard let spec = fields[field] else { return nil }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(spec.label)</title>
            <style>
            html,body{margin:0;padding:0;background:transparent}
            #field{box-sizing:border-box;width:100%;height:2.75em;margin:0;font:16px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;padding:.5em .75em;border:1px solid #6b7280;border-radius:6px;color:#111;background:#fff}
            #field:focus{outline:3px solid #f59e0b;outline-offset:-3px}
            </style><style id="merchant-style"></style>
            </head><body data-field="\(field)">
            <input id="field" type="text" aria-label="\(spec.label)" autocomplete="\(spec.autocomplete)"\(spec.numeric ? " inputmode=\"numeric\"" : "") maxlength="\(spec.maxLength)" spellcheck="false">
            <script src="/form/assets/field.js"></script>
            </body></html>
            """
    }

    /// The field's behaviour: configured once, by the page that framed it (that origin only);
    /// the scope's first field collects the others' values over a BroadcastChannel (same origin,
    /// never through the merchant's page) and writes the card into the session with the session
    /// credential; the merchant's page hears only the outcome, and focus, blur, change and
    /// validity events without values.
    static let script = #"""
        (function () {
          'use strict';
          var input = document.getElementById('field');
          var FIELD = document.body.getAttribute('data-field');
          var LIMITS = { number: 23, securityCode: 4, expiryMonth: 2, expiryYear: 4, nameOnCard: 256 };
          var ERROR_NAMES = { number: 'cardNumber', securityCode: 'securityCode', expiryMonth: 'expiryMonth', expiryYear: 'expiryYear', nameOnCard: 'nameOnCard' };
          var parentOrigin = null;
          var config = null;
          var channel = null;
          var collecting = null;
          var lastValid = null;

          function raw() {
            var text = String(input.value).slice(0, LIMITS[FIELD]);
            return FIELD === 'number' ? text.replace(/[\s-]/g, '') : text.trim();
          }
          function luhn(digits) {
            var sum = 0;
            for (var i = 0; i < digits.length; i++) {
              var d = digits.charCodeAt(digits.length - 1 - i) - 48;
              if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
              sum += d;
            }
            return sum % 10 === 0;
          }
          function state() {
            var value = raw();
            var valid;
            switch (FIELD) {
              case 'number': valid = /^[0-9]{12,19}$/.test(value) && luhn(value); break;
              case 'securityCode': valid = /^[0-9]{3,4}$/.test(value); break;
              case 'expiryMonth': valid = /^(0?[1-9]|1[0-2])$/.test(value); break;
              case 'expiryYear': valid = /^([0-9]{2}|[0-9]{4})$/.test(value); break;
              default: valid = value.length <= 256;
            }
            return { value: value, valid: valid, empty: value === '' };
          }
          function send(message) {
            if (!parentOrigin || !config) return;
            message.hs = 1;
            message.field = FIELD;
            message.scope = config.scope;
            window.parent.postMessage(message, parentOrigin);
          }
          function event(name) {
            var now = state();
            send({ type: 'event', event: name, valid: now.valid, empty: now.empty, incomplete: !now.valid && !now.empty });
          }

          window.addEventListener('message', function (e) {
            var message = e.data;
            if (e.source !== window.parent || !message || message.hs !== 1) return;
            if (parentOrigin === null) {
              if (message.type !== 'configure') return;
              parentOrigin = e.origin;
            } else if (e.origin !== parentOrigin) {
              return;
            }
            if (message.type === 'configure') {
              config = message;
              open();
              send({ type: 'ready' });
            } else if (message.type === 'focus') {
              input.focus();
            } else if (message.type === 'style') {
              style(message.kind, message.style);
            } else if (message.type === 'update' && config && config.controller) {
              collect(message.requestId, submit);
            } else if (message.type === 'validate' && config && config.controller) {
              collect(message.requestId, function (requestId, values) {
                var results = {};
                config.fields.forEach(function (field) {
                  var entry = values[field];
                  var result = { isValid: entry.valid && entry.value !== '' };
                  if (entry.value === '') { result.isValid = field === 'nameOnCard'; if (!result.isValid) result.errorReason = 'EMPTY'; }
                  else if (!entry.valid) result.errorReason = 'INVALID';
                  results[field] = result;
                });
                send({ type: 'validated', requestId: requestId, results: results });
                collecting = null;
              });
            }
          });

          function open() {
            if (channel) channel.close();
            channel = new BroadcastChannel('hosted-session:' + config.sessionId + ':' + config.scope);
            channel.onmessage = function (e) {
              var message = e.data;
              if (message.type === 'collect') {
                var now = state();
                channel.postMessage({ type: 'value', requestId: message.requestId, field: FIELD, value: now.value, valid: now.valid });
              } else if (message.type === 'value' && collecting && message.requestId === collecting.id) {
                collecting.values[message.field] = { value: String(message.value).slice(0, LIMITS[message.field] || 0), valid: !!message.valid };
              }
            };
          }

          // The scope's values, from every field (over the channel), then `done(requestId, values)`.
          function collect(requestId, done) {
            var now = state();
            collecting = { id: requestId, values: {} };
            collecting.values[FIELD] = { value: now.value, valid: now.valid };
            channel.postMessage({ type: 'collect', requestId: requestId });
            var deadline = Date.now() + 3000;
            (function wait() {
              if (!collecting || collecting.id !== requestId) return;
              if (config.fields.every(function (field) { return collecting.values[field]; })) return done(requestId, collecting.values);
              if (Date.now() > deadline) return finish(requestId, { status: 'request_timeout', message: 'A card field did not answer' });
              setTimeout(wait, 20);
            })();
          }

          function submit(requestId, values) {
            var errors = {};
            config.fields.forEach(function (field) {
              var entry = values[field];
              if (entry.value === '') { if (field !== 'nameOnCard') errors[ERROR_NAMES[field]] = 'missing'; }
              else if (!entry.valid) errors[ERROR_NAMES[field]] = 'invalid';
            });
            if (Object.keys(errors).length) {
              return finish(requestId, { status: 'fields_in_error', session: { id: config.sessionId }, errors: errors });
            }
            var card = {};
            if (values.number) card.number = values.number.value;
            if (values.securityCode) card.securityCode = values.securityCode.value;
            if (values.expiryMonth || values.expiryYear) {
              card.expiry = {};
              if (values.expiryMonth) card.expiry.month = values.expiryMonth.value;
              if (values.expiryYear) card.expiry.year = values.expiryYear.value.slice(-2);
            }
            if (values.nameOnCard && values.nameOnCard.value) card.nameOnCard = values.nameOnCard.value;
            var path = '/api/rest/version/' + config.version + '/merchant/' + encodeURIComponent(config.merchant)
              + '/session/' + encodeURIComponent(config.sessionId);
            fetch(path, {
              method: 'PUT',
              credentials: 'omit',
              headers: { 'Content-Type': 'application/json', 'Authorization': 'Basic ' + btoa('merchant.' + config.merchant + ':' + config.sessionId) },
              body: JSON.stringify({ apiOperation: 'UPDATE_PAYER_DATA', sourceOfFunds: { type: 'CARD', provided: { card: card } } })
            }).then(function (response) {
              return response.json().then(function (body) { return { status: response.status, body: body }; });
            }).then(function (answer) {
              var body = answer.body || {};
              if (answer.status === 200) {
                body.status = 'ok';
                // As the gateway shows a session's card: the security code is there, masked.
                var shown = body.sourceOfFunds && body.sourceOfFunds.provided && body.sourceOfFunds.provided.card;
                if (shown && card.securityCode) shown.securityCode = card.securityCode.replace(/./g, 'x');
                finish(requestId, body);
              } else if (answer.status === 400 && body.error && body.error.field) {
                var errors = {};
                errors[errorName(body.error.field)] = 'invalid';
                finish(requestId, { status: 'fields_in_error', session: { id: config.sessionId }, errors: errors });
              } else {
                var explanation = (body.error && body.error.explanation) || 'The session could not be updated';
                finish(requestId, { status: 'system_error', message: explanation, errors: { message: explanation } });
              }
            }, function () {
              finish(requestId, { status: 'request_timeout', message: 'The gateway could not be reached' });
            });
          }
          function errorName(field) {
            if (/card\.number$/.test(field)) return 'cardNumber';
            if (/securityCode$/.test(field)) return 'securityCode';
            if (/expiry\.month$/.test(field) || /expiry$/.test(field)) return 'expiryMonth';
            if (/expiry\.year$/.test(field)) return 'expiryYear';
            if (/nameOnCard$/.test(field)) return 'nameOnCard';
            return 'message';
          }
          function finish(requestId, response) {
            collecting = null;
            send({ type: 'updated', requestId: requestId, response: response });
          }

          // The merchant's look, within limits: known properties, plain values.
          var PROPERTIES = { color: 'color', backgroundColor: 'background-color', borderColor: 'border-color', borderWidth: 'border-width',
            borderStyle: 'border-style', borderRadius: 'border-radius', fontSize: 'font-size', fontFamily: 'font-family',
            fontWeight: 'font-weight', fontStyle: 'font-style', padding: 'padding', textAlign: 'text-align', outline: 'outline' };
          var rules = {};
          function style(kind, requested) {
            var selector = kind === 'hover' ? '#field:hover' : kind === 'placeholder' ? '#field::placeholder' : '#field:focus';
            var declarations = [];
            Object.keys(requested || {}).forEach(function (key) {
              var property = PROPERTIES[key] || (Object.keys(PROPERTIES).map(function (k) { return PROPERTIES[k]; }).indexOf(key) >= 0 ? key : null);
              var value = String(requested[key]);
              if (property && /^[#(),.%\w\s"'-]{1,80}$/.test(value)) declarations.push(property + ':' + value);
            });
            rules[selector] = declarations.join(';');
            document.getElementById('merchant-style').textContent = Object.keys(rules).map(function (s) { return s + '{' + rules[s] + '}'; }).join('\n');
          }

          var lastEmpty = true;
          var lastBrand = null;
          var lastBin = '';
          function brandOf(digits) {
            if (/^4/.test(digits)) return 'VISA';
            if (/^(5[1-5]|2(2[2-9]|[3-6][0-9]|7[01]|720))/.test(digits)) return 'MASTERCARD';
            if (/^3[47]/.test(digits)) return 'AMEX';
            if (/^(6011|65|64[4-9])/.test(digits)) return 'DISCOVER';
            if (/^35/.test(digits)) return 'JCB';
            if (/^3(0[0-5]|[68])/.test(digits)) return 'DINERS_CLUB';
            if (/^62/.test(digits)) return 'UNIONPAY';
            return null;
          }
          function cardEvents() {
            var digits = raw();
            var brand = digits.length >= 2 ? brandOf(digits) : null;
            if (brand !== lastBrand) {
              lastBrand = brand;
              send({ type: 'event', event: 'cardType', brand: brand, status: brand ? 'SUPPORTED' : (digits.length < 2 ? 'INSUFFICIENT_DIGITS' : 'UNSUPPORTED') });
            }
            var bin = digits.length >= 6 ? digits.slice(0, 6) : '';
            if (bin !== lastBin) { lastBin = bin; send({ type: 'event', event: 'bin' }); }
          }
          input.addEventListener('mouseover', function () { event('mouseOver'); });
          input.addEventListener('mouseout', function () { event('mouseOut'); });
          input.addEventListener('focus', function () { event('focus'); });
          input.addEventListener('blur', function () { event('blur'); });
          input.addEventListener('input', function () {
            if (config && config.invalidFieldCharacters === 'REJECT' && FIELD !== 'nameOnCard') input.value = input.value.replace(/[^0-9 ]/g, '');
            if (FIELD === 'number' && config && config.formatCard === 'EMBOSSED') {
              var digits = input.value.replace(/[^0-9]/g, '').slice(0, 19);
              input.value = digits.replace(/(.{4})(?=.)/g, '$1 ');
            }
            event('change');
            var now = state();
            if (now.valid !== lastValid) { lastValid = now.valid; event('validity'); }
            if (now.empty !== lastEmpty) { lastEmpty = now.empty; event('emptiness'); }
            if (FIELD === 'number') cardEvents();
          });
        })();
        """#
}
