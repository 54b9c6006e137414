/*
 * Qaldy status page: reads api/v2/summary.json every few seconds and api/v2/uptime.json every
 * minute, and draws the banner with its one-sentence headline, what people can do (one row per
 * group, with data-group and data-status), each cell and component (with data-component and data-status),
 * incidents (with data-incident-status) and 90-day uptime bars (the percentage over the days with data). When fresh data cannot be had
 * (an error, no answer within FETCH_TIMEOUT_MS, or no summary for STALE_MS) it says "no data since …" and never shows green.
 */
'use strict';

(function () {
  var S = QaldyStatus;
  var el = S.el;
  var SUMMARY_EVERY_MS = 5000;
  var UPTIME_EVERY_MS = 60000;
  /** No summary for this long (ms) → "No data since …": two polls and a whole request timeout. */
  var STALE_MS = 2 * SUMMARY_EVERY_MS + S.FETCH_TIMEOUT_MS;

  var lastSummary = null;       // the latest summary that arrived
  var lastSuccessAt = null;     // Date of that arrival
  var failingSince = null;      // Date of the first failed fetch in a row, or null
  var uptimeById = {};          // component id -> uptime entry of uptime.json

  function byId(id) { return document.getElementById(id); }

  function indicatorWord(indicator) {
    return { none: '\u2713', minor: '!', major: '!', critical: '\u2715' }[indicator] || '?';
  }

  function componentNames(summary) {
    var several = summary.cells.length > 1;
    var names = {};
    summary.components.forEach(function (c) { names[c.id] = c.name + (several ? ' (cell ' + c.cell + ')' : ''); });
    return names;
  }

  /** The status to show for a component: the summary's, or unknown when the page itself has no fresh data. */
  function shownStatus(component) {
    return failingSince ? 'unknown' : component.status;
  }

  function stateLine(component) {
    var status = shownStatus(component);
    if (failingSince) {
      return ['No data since ', S.timeEl(lastSuccessAt.toISOString())];
    }
    if (component.no_data_since) {
      return ['No data since ', S.timeEl(component.no_data_since)];
    }
    var word = status === 'unknown' ? 'Unknown' : S.STATUS_WORDS[status];
    return [word + ' since ', S.timeEl(component.since)];
  }

  function stateText(component) {
    var status = shownStatus(component);
    if (status === 'unknown' && (failingSince || component.no_data_since)) return 'No data';
    return S.STATUS_WORDS[status] || status;
  }

  function barClass(percent) {
    if (percent === null || percent === undefined) return 'none';
    if (percent >= 99.9) return 'good';
    if (percent >= 95) return 'warn';
    return 'bad';
  }

  function formatPercent(percent) {
    return (Math.floor(percent * 100) / 100).toLocaleString([], { maximumFractionDigits: 2 }) + ' %';
  }

  function uptimeEl(component) {
    var uptime = uptimeById[component.id];
    if (!uptime) {
      return el('p', { 'class': 'uptime muted', text: 'Uptime history is loading.' });
    }
    var bars = el('div', { 'class': 'bars' });
    var status = shownStatus(component);
    var unsureNow = status === 'unknown' || status === 'starting';
    uptime.days.forEach(function (day, i) {
      // Today's bar is never green beside an "Unknown" or "Starting": nobody knows how today goes.
      var percent = unsureNow && i === uptime.days.length - 1 ? null : day.uptime_percent;
      var label = day.date + ': ' + (percent === null ? 'no data' : formatPercent(percent) + ' up');
      bars.appendChild(el('span', { 'class': 'bar', 'data-uptime': barClass(percent), 'data-date': day.date, title: label }));
    });
    var days = uptime.days.length;
    // The percentage covers only the days with data: say how many, never imply all the days.
    var withData = uptime.days_with_data;
    var over = 'over ' + withData + (withData === 1 ? ' day' : ' days') + ' of data';
    var total = uptime.uptime_percent === null ? 'No data yet' : formatPercent(uptime.uptime_percent) + ' ' + over;
    var summary = uptime.uptime_percent === null ? 'Uptime: no data yet in the last ' + days + ' days.'
      : 'Uptime ' + formatPercent(uptime.uptime_percent) + ' ' + over + ' (of the last ' + days + ' days).';
    bars.setAttribute('role', 'img');
    bars.setAttribute('aria-label', summary);
    return el('div', { 'class': 'uptime' }, [
      bars,
      el('p', { 'class': 'uptime-legend muted', 'aria-hidden': 'true' }, [
        el('span', { text: days + ' days ago' }),
        el('span', { 'class': 'uptime-total', text: total }),
        el('span', { text: 'Today' })
      ])
    ]);
  }

  function stateEl(status, text) {
    return el('span', { 'class': 'state' }, [
      el('span', { 'class': 'icon', 'aria-hidden': 'true', text: S.STATUS_ICONS[status] }),
      el('span', { 'class': 'state-text', text: text })
    ]);
  }

  /** One way of using the platform: its status (unknown without fresh data), what it covers, the parts it relies on. */
  function groupEl(group, names) {
    var status = failingSince ? 'unknown' : group.status;
    var text = failingSince ? 'No data' : (S.STATUS_WORDS[status] || status);
    var parts = (group.components || []).map(function (id) { return names[id] || id; });
    return el('li', { 'class': 'group', 'data-group': group.id, 'data-status': status }, [
      el('div', { 'class': 'component-row' }, [el('h3', { 'class': 'group-name', text: group.name }), stateEl(status, text)]),
      el('p', { 'class': 'covers', text: group.description }),
      parts.length ? el('p', { 'class': 'relies muted', text: 'Relies on: ' + parts.join(', ') + '.' }) : null
    ]);
  }

  function renderGroups(summary) {
    var names = componentNames(summary);
    var list = el('ol', { id: 'groups', 'class': 'components groups' });
    (summary.groups || []).forEach(function (g) { list.appendChild(groupEl(g, names)); });
    byId('groups').replaceWith(list);
  }

  function componentEl(component) {
    var status = shownStatus(component);
    var stale = Boolean(failingSince || component.no_data_since);
    var item = el('li', {
      'class': 'component',
      'data-component': component.component,
      'data-component-id': component.id,
      'data-cell': component.cell,
      'data-status': status,
      'data-stale': stale ? 'true' : 'false',
      'data-since': failingSince ? lastSuccessAt.toISOString() : component.since
    }, [
      el('div', { 'class': 'component-row' }, [
        el('h3', { 'class': 'component-name', text: component.name }),
        stateEl(status, stateText(component))
      ]),
      component.role ? el('p', { 'class': 'role muted', text: component.role }) : null,
      el('p', { 'class': 'since' }, stateLine(component)),
      component.description && status !== 'operational'
        // Without fresh data the last description may say "Ready.": say it is the last known one.
        ? el('p', { 'class': 'detail muted', text: (failingSince ? 'Last known before the data stopped: ' : '') + component.description })
        : null,
      uptimeEl(component)
    ]);
    return item;
  }

  function renderBanner(summary) {
    var banner = byId('overall');
    var text = byId('overall-text');
    var freshness = byId('freshness');
    var headline = byId('headline');
    if (failingSince) {
      headline.textContent = '';
      banner.setAttribute('data-indicator', 'unknown');
      banner.querySelector('.icon').textContent = '?';
      text.textContent = 'No fresh status data since ' + S.localTime(lastSuccessAt ? lastSuccessAt.toISOString() : null);
      freshness.textContent = 'The status page\'s own server has not answered since ' +
        S.localTime(failingSince.toISOString()) + ', so what is shown below may be out of date. This page keeps trying every few seconds.';
      if (!lastSuccessAt) text.textContent = 'No status data yet: this page cannot reach its own server.';
      return;
    }
    banner.setAttribute('data-indicator', summary.status.indicator);
    banner.querySelector('.icon').textContent = indicatorWord(summary.status.indicator);
    if (text.textContent !== summary.status.description) text.textContent = summary.status.description;
    var sentence = summary.status.headline || '';
    if (headline.textContent !== sentence) headline.textContent = sentence;
    freshness.textContent = 'Checked at ' + S.localTime(summary.page.updated_at) + '. Updates every few seconds.';
  }

  function renderCells(summary) {
    var byCell = {};
    summary.components.forEach(function (c) { (byCell[c.cell] = byCell[c.cell] || []).push(c); });
    var container = el('div', { id: 'cells' });
    summary.cells.forEach(function (cell) {
      var indicator = failingSince ? 'unknown' : cell.status.indicator;
      var headingId = 'cell-' + cell.name;
      var list = el('ul', { 'class': 'components' });
      (byCell[cell.name] || []).forEach(function (c) { list.appendChild(componentEl(c)); });
      container.appendChild(el('section', {
        'class': 'cell', 'data-cell': cell.name, 'data-indicator': indicator, 'aria-labelledby': headingId
      }, [
        el('h2', { id: headingId, 'class': 'cell-heading' }, [
          'Cell ' + cell.name,
          el('span', { 'class': 'cell-status', 'data-indicator': indicator,
            text: failingSince ? 'No fresh data' : cell.status.description })
        ]),
        list
      ]));
    });
    byId('cells').replaceWith(container);
  }

  function renderIncidents(summary) {
    var names = componentNames(summary);
    var open = el('ol', { id: 'open-incidents', 'class': 'incidents' });
    summary.incidents.forEach(function (i) { open.appendChild(S.incidentEl(i, names, false)); });
    byId('open-incidents').replaceWith(open);
    byId('open-section').hidden = summary.incidents.length === 0;

    var resolved = el('ol', { id: 'resolved-incidents', 'class': 'incidents' });
    summary.resolved_incidents.forEach(function (i) { resolved.appendChild(S.incidentEl(i, names, false)); });
    byId('resolved-incidents').replaceWith(resolved);
    byId('no-resolved').hidden = summary.resolved_incidents.length > 0;
  }

  function render() {
    if (!lastSummary) {
      if (failingSince) renderBanner(null);
      return;
    }
    byId('page-name').textContent = lastSummary.page.name;
    document.title = lastSummary.page.name + (failingSince ? ': no fresh data' : ': ' + lastSummary.status.description);
    renderBanner(lastSummary);
    renderGroups(lastSummary);
    renderCells(lastSummary);
    renderIncidents(lastSummary);
    document.body.setAttribute('data-fresh', failingSince ? 'false' : 'true');
  }

  function refreshSummary() {
    S.getJson('api/v2/summary.json').then(function (summary) {
      lastSummary = summary;
      lastSuccessAt = new Date();
      failingSince = null;
    }, function () {
      if (!failingSince) failingSince = new Date();
    }).then(render).catch(function (error) {
      if (window.console) window.console.error('status page: could not draw the summary', error);
    }).then(function () {
      setTimeout(refreshSummary, SUMMARY_EVERY_MS);
    });
  }

  /**
   * The last resort against a stale green: when no summary has arrived for STALE_MS, whatever the
   * reason (a request that neither answers nor fails, timers held back), every row says
   * "No data since …" until a fresh summary arrives.
   */
  function watchFreshness() {
    if (!failingSince && lastSuccessAt && Date.now() - lastSuccessAt.getTime() > STALE_MS) {
      failingSince = new Date();
      render();
    }
  }

  function refreshUptime() {
    S.getJson('api/v2/uptime.json').then(function (uptime) {
      var next = {};
      uptime.components.forEach(function (c) { next[c.id] = c; });
      uptimeById = next;
      render();
    }, function () { /* keep the bars we have; the summary shows the freshness */ }).then(function () {
      setTimeout(refreshUptime, UPTIME_EVERY_MS);
    });
  }

  refreshSummary();
  refreshUptime();
  setInterval(watchFreshness, 1000);
}());
