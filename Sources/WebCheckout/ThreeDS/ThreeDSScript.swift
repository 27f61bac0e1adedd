/// `/static/threeDS/1.3.0/three-ds.min.js`: 3-D Secure from the merchant's page with the
/// session credential. `ThreeDS.initiateAuthentication` and `ThreeDS.authenticatePayer` make
/// the gateway's INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER for the configured session,
/// through a hidden relay iframe on the gateway's origin (so the REST API needs no CORS), retry
/// a 429 or SERVER_BUSY, and show the challenge in `containerId` (or the whole window with
/// `fullScreenRedirect`). Kept as text so the static binary needs no resources.
enum ThreeDSScript {
    static let source = #"""
        /* 3-D Secure (Apple Pay gateway). */
        (function () {
          'use strict';
          if (window.ThreeDS && window.ThreeDS.isGatewayThreeDS) return;
          var SCRIPT = /\/static\/threeDS\/[^/]+\/three-ds\.min\.js([?#]|$)/;
          var loadedFrom = (document.currentScript && document.currentScript.src)
            || (Array.prototype.filter.call(document.querySelectorAll('script[src]'), function (s) { return SCRIPT.test(s.src); })[0] || {}).src
            || location.href;
          var GATEWAY = new URL(loadedFrom, location.href).origin;
          var RETRIES = [500, 1000, 2000];
          var config = null;
          var relay = null;
          var relayReady = null;
          var calls = {};
          var counter = 0;
          var listeners = {};

          function emit(name, data) {
            (listeners[name] || []).forEach(function (fn) { try { fn(data); } catch (e) { if (window.console) console.error(e); } });
          }

          function configure(options) {
            if (!options || !options.merchantId || !options.sessionId) {
              throw new TypeError('ThreeDS.configure needs merchantId and sessionId');
            }
            config = {
              merchantId: String(options.merchantId), sessionId: String(options.sessionId), containerId: options.containerId,
              version: String((options.configuration && options.configuration.wsVersion) || 100),
              language: (options.configuration && options.configuration.userLanguage) || navigator.language || 'en-US'
            };
            if (!relay) {
              relay = document.createElement('iframe');
              relay.src = GATEWAY + '/static/threeDS/relay.html';
              relay.title = '3-D Secure';
              relay.setAttribute('aria-hidden', 'true');
              relay.tabIndex = -1;
              relay.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
              relayReady = new Promise(function (resolve) { relay.addEventListener('load', resolve); });
              (document.body || document.documentElement).appendChild(relay);
            }
            relayReady.then(function () { if (typeof options.callback === 'function') options.callback(); });
          }

          window.addEventListener('message', function (event) {
            var message = event.data;
            if (event.origin !== GATEWAY || !relay || event.source !== relay.contentWindow || !message || message.td !== 1) return;
            var call = calls[message.id];
            if (!call) return;
            delete calls[message.id];
            call(message);
          });

          // One PUT through the relay; a 429 or SERVER_BUSY is tried again after a pause.
          function put(path, body, attempt) {
            return relayReady.then(function () {
              return new Promise(function (resolve) {
                var id = 'c' + (++counter);
                calls[id] = resolve;
                relay.contentWindow.postMessage({ td: 1, id: id, path: path, body: body,
                  authorization: 'Basic ' + btoa('merchant.' + config.merchantId + ':' + config.sessionId) }, GATEWAY);
              });
            }).then(function (answer) {
              var busy = answer.status === 429 || (answer.body && answer.body.error && answer.body.error.cause === 'SERVER_BUSY');
              var tried = attempt || 0;
              if (busy && tried < RETRIES.length) {
                return new Promise(function (resolve) { setTimeout(resolve, RETRIES[tried]); }).then(function () { return put(path, body, tried + 1); });
              }
              return answer;
            });
          }

          function transactionPath(orderId, transactionId) {
            return '/api/rest/version/' + encodeURIComponent(config.version) + '/merchant/' + encodeURIComponent(config.merchantId)
              + '/order/' + encodeURIComponent(orderId) + '/transaction/' + encodeURIComponent(transactionId);
          }

          function merged(base, extra) {
            Object.keys(extra || {}).forEach(function (key) {
              var value = extra[key];
              if (value && typeof value === 'object' && !Array.isArray(value) && base[key] && typeof base[key] === 'object') merged(base[key], value);
              else base[key] = value;
            });
            return base;
          }

          function answerOf(answer) {
            var body = answer.body || {};
            var data = { restApiResponse: body, correlationId: body.correlationId };
            if (body.response && body.response.gatewayRecommendation) data.gatewayRecommendation = body.response.gatewayRecommendation;
            if (body.authentication && body.authentication.version) data.authenticationVersion = body.authentication.version;
            if (answer.status >= 400 || body.result === 'ERROR') {
              data.error = body.error || { cause: 'SERVER_FAILED', explanation: 'The gateway could not be reached' };
            }
            return data;
          }

          function requireConfigured() {
            if (!config) throw new Error('ThreeDS.configure first');
          }

          function initiateAuthentication(orderId, transactionId, callback, optionalParams) {
            requireConfigured();
            var body = merged({
              apiOperation: 'INITIATE_AUTHENTICATION', session: { id: config.sessionId },
              authentication: { channel: 'PAYER_BROWSER', purpose: 'PAYMENT_TRANSACTION' }
            }, optionalParams);
            emit('BEFORE_INITIATE_AUTHENTICATION', { orderId: orderId, transactionId: transactionId });
            put(transactionPath(orderId, transactionId), body).then(function (answer) {
              var data = answerOf(answer);
              emit('AFTER_INITIATE_AUTHENTICATION', data);
              if (typeof callback === 'function') callback(data);
            });
          }

          function browserDetails() {
            return {
              javaEnabled: false, language: config.language, screenHeight: screen.height, screenWidth: screen.width,
              timeZone: new Date().getTimezoneOffset(), colorDepth: screen.colorDepth, acceptHeaders: 'application/json',
              '3DSecureChallengeWindowSize': 'FULL_SCREEN'
            };
          }

          function authenticatePayer(orderId, transactionId, callback, optionalParams) {
            requireConfigured();
            var options = merged({}, optionalParams || {});
            var fullScreen = !!options.fullScreenRedirect;
            delete options.fullScreenRedirect;
            var body = merged({
              apiOperation: 'AUTHENTICATE_PAYER', session: { id: config.sessionId },
              device: { browser: navigator.userAgent.slice(0, 255), browserDetails: browserDetails() }
            }, options);
            emit('BEFORE_AUTHENTICATE_PAYER', { orderId: orderId, transactionId: transactionId });
            put(transactionPath(orderId, transactionId), body).then(function (answer) {
              var data = answerOf(answer);
              var redirect = data.restApiResponse.authentication && data.restApiResponse.authentication.redirect;
              if (!data.error && redirect && redirect.html) {
                data.htmlRedirectCode = redirect.html;
                challenge(redirect.html, fullScreen);
              }
              emit('AFTER_AUTHENTICATE_PAYER', data);
              if (typeof callback === 'function') callback(data);
            });
          }

          // The gateway's redirect html posts a form to the ACS: in an iframe inside the
          // container, or in the whole window.
          function challenge(html, fullScreen) {
            var holder = document.createElement('div');
            holder.innerHTML = html;
            var form = holder.querySelector('form');
            if (!form) return;
            form.removeAttribute('target');
            var container = config.containerId && document.getElementById(config.containerId);
            if (fullScreen || !container) {
              form.style.display = 'none';
              document.body.appendChild(form);
              form.submit();
              return;
            }
            container.innerHTML = '';
            var frame = document.createElement('iframe');
            frame.name = 'threeds-challenge-' + (++counter);
            frame.title = '3-D Secure: your bank';
            frame.style.cssText = 'width:100%;min-height:420px;border:0;display:block';
            container.appendChild(frame);
            form.target = frame.name;
            form.style.display = 'none';
            container.appendChild(form);
            form.submit();
          }

          window.ThreeDS = {
            isGatewayThreeDS: true,
            configure: configure,
            isConfigured: function () { return config !== null; },
            initiateAuthentication: initiateAuthentication,
            authenticatePayer: authenticatePayer,
            onEvent: function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); }
          };
        })();
        """#

    /// The relay iframe's script: PUTs on transaction paths for its parent page, same-origin, and
    /// answers the status and body to that page only.
    static let relay = #"""
        (function () {
          'use strict';
          var PATH = /^\/api\/rest\/version\/[0-9]+\/merchant\/[^/]+\/order\/[^/]+\/transaction\/[^/]+$/;
          window.addEventListener('message', function (event) {
            var message = event.data;
            if (event.source !== window.parent || !message || message.td !== 1 || typeof message.path !== 'string') return;
            var origin = event.origin;
            function answer(status, body) { window.parent.postMessage({ td: 1, id: message.id, status: status, body: body }, origin); }
            if (!PATH.test(message.path) || !/^Basic [A-Za-z0-9+/=]{1,512}$/.test(String(message.authorization))) {
              answer(400, { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation: 'The relay takes transaction PUTs with the session credential only' } });
              return;
            }
            fetch(message.path, {
              method: 'PUT', credentials: 'omit',
              headers: { 'Content-Type': 'application/json', 'Authorization': message.authorization },
              body: JSON.stringify(message.body || {})
            }).then(function (response) {
              return response.json().then(function (body) { answer(response.status, body); }, function () { answer(response.status, {}); });
            }, function () {
              answer(0, { result: 'ERROR', error: { cause: 'SERVER_FAILED', explanation: 'The gateway could not be reached' } });
            });
          });
        })();
        """#

    static let relayPage = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>3-D Secure relay</title></head>
        <body><script src="/static/threeDS/relay.js"></script></body></html>
        """
}
