// Live updates through server-sent events; every page reads fine without them.
(function () {
  'use strict';

  // The status table: fetched again whenever the server says a run moved on.
  var status = document.querySelector('[data-live-status]');
  if (status) {
    var busy = false, again = false;
    var refresh = function () {
      if (busy) { again = true; return; }
      busy = true;
      fetch(location.href, { headers: { Accept: 'text/html' } })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-live-status]');
          if (fresh) { status.innerHTML = fresh.innerHTML; }
        })
        .catch(function () {})
        .then(function () { busy = false; if (again) { again = false; refresh(); } });
    };
    var changes = new EventSource('/events');
    changes.addEventListener('changed', refresh);
    // What happened between the page being made and the stream opening (or reopening).
    changes.addEventListener('open', refresh);
  }

  // A run: each case's row as it finishes, then the submission's page.
  var run = document.querySelector('[data-run]');
  if (run) {
    var events = new EventSource(run.dataset.run);
    var cases = document.getElementById('cases');
    events.addEventListener('state', function (e) {
      document.getElementById('run-state').innerHTML = e.data;
    });
    events.addEventListener('case', function (e) {
      var c = JSON.parse(e.data);
      if (!document.getElementById(c.id)) { cases.insertAdjacentHTML('beforeend', c.html); }
    });
    events.addEventListener('end', function (e) {
      events.close();
      var end = JSON.parse(e.data);
      if (end.href) { location.href = end.href; return; }
      var failed = document.getElementById('run-failed');
      failed.textContent = end.error;
      failed.hidden = false;
    });
  }
})();
