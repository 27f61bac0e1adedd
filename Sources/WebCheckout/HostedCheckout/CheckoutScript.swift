/// `/static/checkout/checkout.min.js` and the legacy `/checkout/version/{v}/checkout.js`: the
/// Hosted Checkout library merchant pages load (one source; the legacy script differs in what
/// `Checkout.configure` may carry and in the complete callback's arguments). Kept as text so the
/// static binary needs no resources.
///
/// ES2017, no dependencies. It may be loaded twice (plugins inject it again): the first
/// `window.Checkout` stays. Callbacks are read from the script tag's `data-*` attributes when
/// they are needed, so attributes set after the tag was inserted count too. How the page ends
/// reaches it as the merchant page's hash (`#__hc-action-complete?…`, `-cancel`, `-timeout`) after
/// a full-page redirect, or as a message from the embedded page's iframe.
enum CheckoutScript {
    /// The script for API version `legacyVersion` (checkout.js), or checkout.min.js when nil.
    static func source(legacyVersion: Int?) -> String {
        template.replacingOccurrences(of: "__HC_LEGACY_VERSION__", with: String(legacyVersion ?? 0))
    }

    static let template = #"""
        /* Hosted Checkout (Apple Pay gateway). */
        (function () {
          'use strict';
          var LEGACY = __HC_LEGACY_VERSION__;
          if (window.Checkout && window.Checkout.isGatewayCheckout) return;
          var SCRIPT = /\/(static\/checkout\/checkout\.min\.js|checkout\/version\/[0-9]+\/checkout\.js)([?#]|$)/;
          var ATTRIBUTES = { error: 'data-error', cancel: 'data-cancel', complete: 'data-complete', timeout: 'data-timeout',
            beforeRedirect: 'data-beforeRedirect', afterRedirect: 'data-afterRedirect' };
          var STATE_KEY = 'HostedCheckout_merchantState';
          var SESSION_KEY = 'HostedCheckout_sessionId';
          var EMBED_KEY = 'HostedCheckout_embedContainer';

          function scripts() {
            return Array.prototype.filter.call(document.querySelectorAll('script[src]'), function (tag) { return SCRIPT.test(tag.src); });
          }
          var loadedFrom = (document.currentScript && document.currentScript.src) || (scripts()[0] || {}).src || location.href;
          var GATEWAY = new URL(loadedFrom, location.href).origin;

          function storage() { try { return window.sessionStorage; } catch (e) { return null; } }
          function remember(key, value) { var s = storage(); if (s) { if (value === null) s.removeItem(key); else s.setItem(key, value); } }
          function recall(key) { var s = storage(); return s ? s.getItem(key) : null; }

          // A callback attribute's value: from any of the library's script tags (the first that has one).
          function attribute(name) {
            var tags = scripts();
            for (var i = 0; i < tags.length; i++) {
              var value = tags[i].getAttribute(ATTRIBUTES[name]) || tags[i].getAttribute(ATTRIBUTES[name].toLowerCase());
              if (value && value.trim()) return value.trim();
            }
            return null;
          }
          // A global function's name or dotted path (window.x, Checkout.saveFormFields).
          function resolve(value) {
            var target = window;
            var path = value.replace(/^window\./, '').split('.');
            for (var i = 0; i < path.length; i++) {
              if (target === null || target === undefined || !/^[A-Za-z_$][\w$]*$/.test(path[i])) return null;
              target = target[path[i]];
            }
            return typeof target === 'function' ? target : null;
          }
          function isURL(value) { return /^(https?:\/\/|\/|\.{1,2}\/)/i.test(value); }
          function withQuery(url, query) {
            var target = new URL(url, location.href);
            Object.keys(query).forEach(function (key) { target.searchParams.set(key, query[key]); });
            return target.href;
          }
          // Calls the callback `name` (a function, or a URL to go to with `query`); names that
          // resolve to nothing are ignored, as the gateway's library ignores them.
          function callback(name, args, query) {
            var value = attribute(name);
            if (!value) return undefined;
            var fn = resolve(value);
            if (fn) return fn.apply(window, args || []);
            if (isURL(value)) window.location.href = withQuery(value, query || {});
            return undefined;
          }
          function fail(error) {
            var problem = { result: 'ERROR', cause: error.cause || 'SERVER_FAILED', explanation: error.explanation || 'The payment page could not be shown' };
            if (error.field) problem.field = error.field;
            if (error.validationType) problem.validationType = error.validationType;
            if (attribute('error')) callback('error', [problem]);
            else if (window.console) console.error('Checkout error: ' + problem.cause + ': ' + problem.explanation);
          }

          var configured = null;
          var sessionId = null;
          var frame = null;
          var lightbox = null;

          function configure(config) {
            if (!config || typeof config !== 'object') {
              fail({ cause: 'INVALID_REQUEST', explanation: 'Checkout.configure takes an object: {session: {id: "<session id>"}}', field: 'session.id', validationType: 'MISSING' });
              return;
            }
            configured = config;
            if (config.session && config.session.id) {
              sessionId = String(config.session.id);
              remember(SESSION_KEY, sessionId);
            }
            if (!LEGACY) {
              Object.keys(config).forEach(function (key) {
                if (key !== 'session' && window.console) console.warn('Checkout.configure: "' + key + '" is ignored; INITIATE_CHECKOUT gives it');
              });
            }
          }

          // The legacy configure's fields as dotted names, functions called now.
          function flatten(value, prefix, into) {
            if (typeof value === 'function') value = value();
            if (value === null || value === undefined) return;
            if (Array.isArray(value)) return;
            if (typeof value === 'object') {
              Object.keys(value).forEach(function (key) { flatten(value[key], prefix ? prefix + '.' + key : key, into); });
            } else {
              into[prefix] = String(value);
            }
          }

          function pageURL() { return location.href.split('#')[0]; }

          // Asks the gateway for the page; resolves to its address.
          function requestPage(mode) {
            if (!sessionId) {
              fail({ cause: 'INVALID_REQUEST', explanation: 'Missing session.id: call Checkout.configure({session: {id: "<session id>"}}) first', field: 'session.id', validationType: 'MISSING' });
              return Promise.reject(null);
            }
            var version = LEGACY ? Promise.resolve(String(LEGACY)) : fetch(GATEWAY + '/checkout/api/retrieveWsapiVersion/' + encodeURIComponent(sessionId))
              .then(function (response) { return response.json().then(function (answer) { if (!response.ok) throw answer; return answer.wsapiVersion; }); });
            return version.then(function (apiVersion) {
              var fields = {};
              if (LEGACY && configured) flatten(configured, '', fields);
              fields['session.id'] = sessionId;
              fields['checkout.mode'] = mode;
              fields['interaction.cancelUrl'] = pageURL() + '#__hc-action-cancel';
              fields['interaction.timeoutUrl'] = pageURL() + '#__hc-action-timeout';
              fields['interaction.completeUrl'] = pageURL() + '#__hc-action-complete';
              return fetch(GATEWAY + '/api/page/version/' + encodeURIComponent(apiVersion) + '/pay', {
                method: 'POST',
                headers: { 'Accept': 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams(fields).toString()
              });
            }).then(function (response) {
              return response.json().then(function (answer) {
                if (!response.ok || !answer.redirectURL) throw answer;
                return GATEWAY + answer.redirectURL;
              });
            }).catch(function (problem) {
              if (problem === null) throw null;
              fail(problem && problem.error ? problem.error : { cause: 'SERVER_FAILED', explanation: 'The gateway could not be reached' });
              throw null;
            });
          }

          function beforeRedirect() {
            var state = callback('beforeRedirect', []);
            if (state !== undefined) remember(STATE_KEY, JSON.stringify(state));
          }

          function showPaymentPage() {
            requestPage('PAYMENT_PAGE').then(function (url) { beforeRedirect(); window.location.href = url; }, function () {});
          }

          function embed(container, url) {
            container.innerHTML = '';
            frame = document.createElement('iframe');
            frame.src = url;
            frame.title = 'Payment';
            frame.setAttribute('allow', 'payment');
            frame.style.cssText = 'width:100%;min-height:480px;border:0;display:block';
            container.appendChild(frame);
          }

          function showEmbeddedPage(selector, openModal) {
            var container = typeof selector === 'string' ? document.querySelector(selector) : selector;
            if (!container) {
              fail({ cause: 'INVALID_REQUEST', explanation: 'No element matches "' + selector + '" for the embedded page' });
              return;
            }
            if (typeof selector === 'string') remember(EMBED_KEY, selector);
            if (typeof openModal === 'function') openModal();
            requestPage('EMBEDDED').then(function (url) { embed(container, url); }, function () {});
          }

          function closeLightbox() {
            if (lightbox) { lightbox.remove(); lightbox = null; }
          }

          function showLightbox() {
            closeLightbox();
            lightbox = document.createElement('div');
            lightbox.setAttribute('role', 'dialog');
            lightbox.setAttribute('aria-modal', 'true');
            lightbox.setAttribute('aria-label', 'Payment');
            lightbox.style.cssText = 'position:fixed;inset:0;z-index:2147483646;background:rgba(0,0,0,.55);display:flex;align-items:flex-start;justify-content:center;overflow:auto';
            var box = document.createElement('div');
            box.style.cssText = 'background:#fff;margin:4vh 1rem;width:100%;max-width:34rem;border-radius:12px;padding:.5rem';
            var close = document.createElement('button');
            close.type = 'button';
            close.textContent = 'Close';
            close.style.cssText = 'float:right;font:inherit;padding:.25rem .75rem';
            close.addEventListener('click', function () { closeLightbox(); callback('cancel', []); });
            lightbox.addEventListener('keydown', function (event) { if (event.key === 'Escape') { closeLightbox(); callback('cancel', []); } });
            var holder = document.createElement('div');
            box.appendChild(close);
            box.appendChild(holder);
            lightbox.appendChild(box);
            document.body.appendChild(lightbox);
            close.focus();
            requestPage('LIGHTBOX').then(function (url) { embed(holder, url); }, function () { closeLightbox(); });
          }

          // The merchant page's form fields, kept across the redirect (the default beforeRedirect).
          function saveFormFields() {
            var saved = {};
            Array.prototype.forEach.call(document.querySelectorAll('input, select, textarea'), function (field) {
              var key = field.id || field.name;
              if (!key || field.type === 'password' || field.type === 'hidden' || field.type === 'file') return;
              saved[key] = (field.type === 'checkbox' || field.type === 'radio') ? field.checked : field.value;
            });
            return saved;
          }
          function restoreFormFields(saved) {
            if (!saved || typeof saved !== 'object') return;
            Object.keys(saved).forEach(function (key) {
              var field = document.getElementById(key) || document.getElementsByName(key)[0];
              if (!field) return;
              if (field.type === 'checkbox' || field.type === 'radio') field.checked = !!saved[key]; else field.value = saved[key];
            });
          }

          function complete(resultIndicator, sessionVersion) {
            remember(SESSION_KEY, null);
            var query = { resultIndicator: resultIndicator, sessionVersion: sessionVersion };
            var args;
            if (LEGACY) {
              args = [resultIndicator, sessionVersion];
            } else {
              // An object for pages that read result.resultIndicator, that is the indicator as text for
              // pages written for the legacy (resultIndicator, sessionVersion) arguments.
              var result = { resultIndicator: resultIndicator, sessionVersion: sessionVersion };
              Object.defineProperty(result, 'toString', { value: function () { return resultIndicator; } });
              args = [result, sessionVersion];
            }
            callback('complete', args, query);
          }

          window.addEventListener('message', function (event) {
            var message = event.data;
            if (event.origin !== GATEWAY || !message || message.source !== 'hosted-checkout') return;
            if (sessionId && message.sessionId && message.sessionId !== sessionId) return;
            switch (message.event) {
              case 'resize':
                if (frame && message.height > 0) frame.style.height = Math.min(message.height + 8, 4000) + 'px';
                break;
              case 'complete':
                closeLightbox();
                if (message.returnUrl) {
                  beforeRedirect();
                  window.location.href = withQuery(message.returnUrl, { resultIndicator: message.resultIndicator, sessionVersion: message.sessionVersion });
                } else {
                  complete(message.resultIndicator, message.sessionVersion);
                }
                break;
              case 'cancel':
              case 'timeout':
                closeLightbox();
                if (message.url) window.location.href = message.url; else callback(message.event, []);
                break;
              case 'error':
                fail(message.error || {});
                break;
            }
          });

          // Back from the payment page: the hash says how it ended (it stays for pages that read it).
          var handled = false;
          function returned() {
            if (handled) return;
            handled = true;
            var state = recall(STATE_KEY);
            if (state !== null) {
              remember(STATE_KEY, null);
              var data;
              try { data = JSON.parse(state); } catch (e) { data = state; }
              callback('afterRedirect', [data]);
            }
            var hash = location.hash;
            if (hash.indexOf('#__hc-action-complete') === 0) {
              var at = hash.indexOf('?');
              var query = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : '');
              complete(query.get('resultIndicator'), query.get('sessionVersion'));
            } else if (hash.indexOf('#__hc-action-cancel') === 0) {
              callback('cancel', []);
            } else if (hash.indexOf('#__hc-action-timeout') === 0) {
              callback('timeout', []);
            }
          }
          if (document.readyState === 'complete') setTimeout(returned, 0); else window.addEventListener('load', returned);

          window.Checkout = {
            isGatewayCheckout: true,
            configure: configure,
            showPaymentPage: showPaymentPage,
            showEmbeddedPage: showEmbeddedPage,
            showLightbox: showLightbox,
            saveFormFields: saveFormFields,
            restoreFormFields: restoreFormFields
          };
        })();
        """#
}
