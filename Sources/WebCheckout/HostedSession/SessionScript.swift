/// `/form/version/{v}/merchant/{m}/session.js`: Hosted Session, the library a merchant's payment
/// form loads so that the card is typed into the gateway's own fields. Each configured field
/// (a CSS selector of the merchant's input) becomes an iframe from the gateway's origin; the
/// input stays empty and hidden. `updateSessionFromForm` asks the scope's first iframe to
/// collect the others' values (they talk among themselves, same-origin, over a BroadcastChannel)
/// and to write the card into the session through Update Session with the session credential;
/// the merchant's page only ever hears the masked result. Kept as text so the static binary
/// needs no resources.
enum SessionScript {
    static func source(version: Int, merchantId: String) -> String {
        template.replacingOccurrences(of: "__HS_VERSION__", with: String(version))
            .replacingOccurrences(of: "__HS_MERCHANT__", with: quoted(merchantId))
    }

    /// A JavaScript string literal of an id (letters, digits and a few marks; anything else dropped).
    private static func quoted(_ text: String) -> String {
        "'"
            + String(
                text.unicodeScalars.filter {
                    $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0))
                }.map(Character.init)
            ) + "'"
    }

    static let template = #"""
        /* Hosted Session (Apple Pay gateway). */
        (function () {
          'use strict';
          if (window.PaymentSession && window.PaymentSession.isGatewaySession) return;
          var VERSION = __HS_VERSION__;
          var MERCHANT = __HS_MERCHANT__;
          var SCRIPT = /\/form\/version\/[0-9]+\/merchant\/[^/]+\/session\.js([?#]|$)/;
          var loadedFrom = (document.currentScript && document.currentScript.src)
            || (Array.prototype.filter.call(document.querySelectorAll('script[src]'), function (s) { return SCRIPT.test(s.src); })[0] || {}).src
            || location.href;
          var GATEWAY = new URL(loadedFrom, location.href).origin;
          var FIELDS = { number: 'card number', securityCode: 'security code', expiryMonth: 'expiry month', expiryYear: 'expiry year', nameOnCard: 'name on card' };
          var DEFAULT_SCOPE = 'default';
          var scopes = {};
          var handlers = { focus: [], blur: [], change: [], validity: [], emptiness: [], mouseOver: [], mouseOut: [], cardType: [], bin: [] };
          var pending = {};
          var counter = 0;

          function scopeOf(name) { return name === undefined || name === null || name === '' ? DEFAULT_SCOPE : String(name); }
          function fieldName(path) { return String(path).replace(/^card\./, ''); }

          function configure(config, scopeName) {
            var name = scopeOf(scopeName);
            if (!config || typeof config !== 'object') throw new TypeError('PaymentSession.configure needs a configuration object');
            var card = (config.fields && config.fields.card) || {};
            var scope = scopes[name] || { frames: {}, ready: {}, order: [] };
            scopes[name] = scope;
            scope.config = config;
            scope.sessionId = config.session ? String(config.session) : scope.sessionId;
            scope.callbacks = config.callbacks || {};
            scope.display = (config.interaction && config.interaction.displayControl) || {};
            scope.order = Object.keys(FIELDS).filter(function (field) { return card[field]; });
            // Configured again (plugins do, with a new session): initialized is said again.
            scope.initialized = false;
            scope.ready = {};
            if (!scope.sessionId) { report(scope, 'initialized', { status: 'system_error', message: 'configure needs session: the session id from Create Session' }); return; }
            scope.order.forEach(function (field) { mount(name, scope, field, card[field]); });
          }

          function mount(scopeName, scope, field, selector) {
            var input = typeof selector === 'string' ? document.querySelector(selector) : selector;
            if (!input) { report(scope, 'initialized', { status: 'system_error', message: 'No element matches ' + selector }); return; }
            var existing = scope.frames[field];
            if (existing && existing.isConnected) { configureFrame(scopeName, scope, field); return; }
            var frame = document.createElement('iframe');
            frame.src = GATEWAY + '/form/version/' + VERSION + '/merchant/' + encodeURIComponent(MERCHANT) + '/field/' + field;
            frame.title = FIELDS[field];
            frame.setAttribute('scrolling', 'no');
            frame.style.cssText = 'border:0;width:100%;height:2.75em;display:block;overflow:hidden';
            // The merchant's input stays, empty and out of the form's submission.
            input.setAttribute('readonly', 'readonly');
            input.setAttribute('tabindex', '-1');
            input.setAttribute('aria-hidden', 'true');
            input.removeAttribute('name');
            input.value = '';
            input.style.display = 'none';
            input.parentNode.insertBefore(frame, input.nextSibling);
            scope.frames[field] = frame;
            scope.ready[field] = false;
            frame.addEventListener('load', function () { frame.setAttribute('data-loaded', '1'); configureFrame(scopeName, scope, field); });
          }

          // Only once the frame holds the gateway's page (before, it is about:blank on this origin).
          function post(scope, field, message) {
            var frame = scope.frames[field];
            if (frame && frame.contentWindow && frame.getAttribute('data-loaded')) { message.hs = 1; frame.contentWindow.postMessage(message, GATEWAY); }
          }

          function configureFrame(scopeName, scope, field) {
            post(scope, field, { type: 'configure', sessionId: scope.sessionId, scope: scopeName, field: field,
              fields: scope.order, controller: scope.order[0] === field, version: VERSION, merchant: MERCHANT,
              formatCard: scope.display.formatCard || '', invalidFieldCharacters: scope.display.invalidFieldCharacters || '' });
          }

          function report(scope, callback, response) {
            var fn = scope.callbacks && scope.callbacks[callback];
            if (typeof fn === 'function') fn(response);
          }

          function updateSessionFromForm(paymentType, paymentSubType, scopeName) {
            var name = scopeOf(scopeName);
            var scope = scopes[name];
            if (!scope || !scope.order.length) throw new Error('PaymentSession.configure first (scope ' + name + ')');
            var requestId = 'u' + (++counter);
            var timer = setTimeout(function () {
              if (!pending[requestId]) return;
              delete pending[requestId];
              report(scope, 'formSessionUpdate', { status: 'request_timeout', message: 'The gateway did not answer in time' });
            }, 30000);
            pending[requestId] = { scope: scope, timer: timer };
            post(scope, scope.order[0], { type: 'update', requestId: requestId });
          }

          // Each field's validity, as the fields see it: {card: {isValid, number: {isValid, selector, errorReason?}, ...}}.
          function validate(paymentType, callback, scopeName) {
            var name = scopeOf(scopeName);
            var scope = scopes[name];
            if (!scope || !scope.order.length) throw new Error('PaymentSession.configure first (scope ' + name + ')');
            var requestId = 'v' + (++counter);
            pending[requestId] = { scope: scope, validate: callback, timer: setTimeout(function () { delete pending[requestId]; }, 30000) };
            post(scope, scope.order[0], { type: 'validate', requestId: requestId });
          }

          function frameOf(field, scopeName) {
            var scope = scopes[scopeOf(scopeName)];
            return scope ? { scope: scope, field: fieldName(field) } : null;
          }
          function setFocus(field, scopeName) {
            var target = frameOf(field, scopeName);
            if (!target || !target.scope.frames[target.field]) return;
            target.scope.frames[target.field].focus();
            post(target.scope, target.field, { type: 'focus' });
          }
          function styleFields(kind) {
            return function (fields, style, scopeName) {
              (fields || []).forEach(function (field) {
                var target = frameOf(field, scopeName);
                if (target) post(target.scope, target.field, { type: 'style', kind: kind, style: style || {} });
              });
            };
          }
          function listen(event) {
            return function (fields, fn, scopeName) {
              handlers[event].push({ fields: (fields || []).map(fieldName), fn: fn, scope: scopeOf(scopeName) });
            };
          }
          // The card number's events: no field list, `(callback, scope)`.
          function listenToNumber(event) {
            return function (fn, scopeName) { handlers[event].push({ fields: ['number'], fn: fn, scope: scopeOf(scopeName) }); };
          }

          window.addEventListener('message', function (event) {
            var message = event.data;
            if (event.origin !== GATEWAY || !message || message.hs !== 1) return;
            var scope = scopes[message.scope];
            if (!scope || scope.frames[message.field] === undefined && message.type !== 'updated') return;
            if (message.type === 'ready') {
              scope.ready[message.field] = true;
              if (scope.order.every(function (field) { return scope.ready[field]; }) && !scope.initialized) {
                scope.initialized = true;
                report(scope, 'initialized', { status: 'ok', scope: message.scope });
              }
            } else if (message.type === 'validated') {
              var asked = pending[message.requestId];
              if (!asked) return;
              clearTimeout(asked.timer);
              delete pending[message.requestId];
              var card = { isValid: true };
              Object.keys(message.results || {}).forEach(function (field) {
                var result = message.results[field];
                result.selector = scope.config.fields.card[field];
                card[field] = result;
                if (!result.isValid) card.isValid = false;
              });
              if (typeof asked.validate === 'function') asked.validate({ card: card });
            } else if (message.type === 'updated') {
              var request = pending[message.requestId];
              if (!request) return;
              clearTimeout(request.timer);
              delete pending[message.requestId];
              report(scope, 'formSessionUpdate', message.response);
            } else if (message.type === 'event' && handlers[message.event]) {
              var selector = scope.config.fields.card[message.field];
              var role = message.field;
              handlers[message.event].forEach(function (handler) {
                if (handler.scope !== message.scope || (handler.fields && handler.fields.indexOf(role) < 0)) return;
                switch (message.event) {
                  case 'validity':
                    handler.fn(selector, { isValid: message.valid, isIncomplete: message.incomplete, isEmpty: message.empty,
                      errorReason: message.valid ? undefined : (message.empty ? 'EMPTY' : 'INVALID') }, role);
                    break;
                  case 'emptiness': handler.fn(selector, { isEmpty: message.empty }, role); break;
                  case 'cardType': handler.fn(selector, { brand: message.brand, scheme: message.brand, status: message.status }, role); break;
                  case 'bin': handler.fn(selector, role); break;
                  default: handler.fn(selector, role);
                }
              });
            }
          });

          window.PaymentSession = {
            isGatewaySession: true,
            configure: configure,
            updateSessionFromForm: updateSessionFromForm,
            setFocus: setFocus,
            setFocusStyle: styleFields('focus'),
            setHoverStyle: styleFields('hover'),
            setPlaceholderStyle: styleFields('placeholder'),
            onFocus: listen('focus'),
            onBlur: listen('blur'),
            onChange: listen('change'),
            onValidityChange: listen('validity'),
            onEmptinessChange: listen('emptiness'),
            onMouseOver: listen('mouseOver'),
            onMouseOut: listen('mouseOut'),
            onCardTypeChange: listenToNumber('cardType'),
            onCardBINChange: listenToNumber('bin'),
            validate: validate
          };
        })();
        """#
}
