/* Qaldy status page: helpers shared by the public page and the operator page. No dependencies. */
'use strict';

var QaldyStatus = (function () {
  var STATUS_WORDS = {
    operational: 'Working',
    degraded_performance: 'Slow',
    partial_outage: 'Partly down',
    major_outage: 'Down',
    unknown: 'Unknown',
    starting: 'Starting'
  };
  var STATUS_ICONS = {
    operational: '\u2713',          // check mark
    degraded_performance: '!',
    partial_outage: '!',
    major_outage: '\u2715',         // multiplication x
    unknown: '?',
    starting: '\u2026'            // ellipsis
  };
  var INCIDENT_WORDS = {
    investigating: 'Investigating',
    identified: 'Identified',
    monitoring: 'Monitoring',
    resolved: 'Resolved'
  };

  /** Creates an element with attributes and children (strings become text nodes, never HTML). */
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      var value = attributes[name];
      if (value === null || value === undefined || value === false) return;
      if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function sameDay(a, b) {
    return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  }

  /** An ISO time as local time: "14:02:03" today, "2 Jan, 14:02" another day. */
  function localTime(iso) {
    if (!iso) return '';
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    if (sameDay(date, new Date())) {
      return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    }
    return date.toLocaleString([], { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  }

  /** A <time> element showing an ISO time in local time, with the full time as its title. */
  function timeEl(iso) {
    var date = new Date(iso);
    return el('time', { datetime: iso, title: isNaN(date.getTime()) ? iso : date.toLocaleString(), text: localTime(iso) });
  }

  /** A duration in plain words: "45 seconds", "2 minutes", "3 hours 5 minutes", "2 days". */
  function duration(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    function unit(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }
    if (s < 60) return unit(s, 'second');
    var m = Math.floor(s / 60);
    if (m < 60) return unit(m, 'minute');
    var h = Math.floor(m / 60);
    if (h < 48) return unit(h, 'hour') + (m % 60 ? ' ' + unit(m % 60, 'minute') : '');
    return unit(Math.floor(h / 24), 'day');
  }

  /** Longest wait for one JSON answer (ms): a server that accepts the connection but never answers is a failure. */
  var FETCH_TIMEOUT_MS = 8000;

  /**
   * GETs JSON from this page's own origin; rejects on network errors, non-2xx answers and when no
   * whole answer came within FETCH_TIMEOUT_MS (a frozen server would otherwise hold the request,
   * and the page its last status, for minutes).
   */
  function getJson(path) {
    var abort = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, FETCH_TIMEOUT_MS) : null;
    return fetch(path, { cache: 'no-store', credentials: 'same-origin', headers: { Accept: 'application/json' },
      signal: abort ? abort.signal : undefined })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (json) { clearTimeout(timer); return json; },
        function (error) { clearTimeout(timer); throw error; });
  }

  /** One incident as a list item with data-incident-status, -origin and -components (ids, space-separated), its messages newest first. */
  function incidentEl(incident, componentNames, showAllUpdates) {
    var meta = el('p', { 'class': 'incident-meta' }, [
      el('span', { 'class': 'badge', 'data-incident-status': incident.status, text: INCIDENT_WORDS[incident.status] || incident.status }),
      ' Started ', timeEl(incident.created_at)
    ]);
    if (incident.resolved_at) {
      meta.appendChild(document.createTextNode(', resolved '));
      meta.appendChild(timeEl(incident.resolved_at));
      meta.appendChild(document.createTextNode(' after ' +
        duration(new Date(incident.resolved_at) - new Date(incident.created_at))));
    }
    var affected = (incident.components || []).map(function (id) { return componentNames[id] || id; });
    if (affected.length) meta.appendChild(document.createTextNode('. Affects: ' + affected.join(', ')));
    var updates = el('ol', { 'class': 'updates' });
    var list = incident.incident_updates || [];
    (showAllUpdates ? list : list.slice(0, 3)).forEach(function (update) {
      updates.appendChild(el('li', { 'class': 'update' }, [
        el('p', { 'class': 'update-body', text: update.body }),
        el('p', { 'class': 'update-meta muted' }, [
          el('strong', { text: INCIDENT_WORDS[update.status] || update.status }), ' \u00b7 ', timeEl(update.created_at)
        ])
      ]));
    });
    return el('li', {
      'class': 'incident',
      'data-incident-id': incident.id,
      'data-incident-status': incident.status,
      'data-incident-origin': incident.origin,
      'data-incident-components': (incident.components || []).join(' ')
    }, [el('h3', { 'class': 'incident-name', text: incident.name }), meta, updates]);
  }

  return {
    STATUS_WORDS: STATUS_WORDS,
    STATUS_ICONS: STATUS_ICONS,
    INCIDENT_WORDS: INCIDENT_WORDS,
    el: el,
    localTime: localTime,
    timeEl: timeEl,
    duration: duration,
    FETCH_TIMEOUT_MS: FETCH_TIMEOUT_MS,
    getJson: getJson,
    incidentEl: incidentEl
  };
}());
