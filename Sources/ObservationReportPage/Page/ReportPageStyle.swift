/// The page's style sheet, inline: the page loads nothing.
enum ReportPageStyle {
  /// The style sheet: a single readable column, from a phone's width up; the charts scale to
  /// it, drawn as ``ChartStyle`` says; tables scroll sideways on their own when too wide; print
  /// drops the controls and keeps figures whole.
  static var css: String {
    ChartStyle.colorRules + "\n" + layout + "\n" + ChartStyle.drawingRules
  }

  private static let layout = """
    :root{color-scheme:light;--ink:#1b1b1b;--muted:#5c5c5c;--rule:#d8d8d8;--paper:#fff;\
    --pass:#d9f2d9;--fail:#f6c6c6;--probe:#d6e4f7;--probe-no:#e9e0f5;--na:#f0f0f0;\
    --probe-unrefuted:#eef3fa;--untested:#fafafa;--crashed:#e6a0a0;--timeout:#f7dca8}
    *{box-sizing:border-box}
    body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",\
    sans-serif;color:var(--ink);background:var(--paper)}
    header,main,nav,footer{max-width:62rem;margin:0 auto;padding:0 1rem}
    h1{font-size:1.5rem;margin:1rem 0 .25rem}
    h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--rule)}
    h3{font-size:1rem;margin:0}
    code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;\
    overflow-wrap:anywhere}
    .source,.muted,figcaption p,.notes,.undrawn{color:var(--muted)}
    dl.metadata{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .75rem;margin:.5rem 0}
    dl.metadata dt{font-weight:600}
    dl.metadata dd{margin:0;overflow-wrap:anywhere}
    .warning{background:#fff3cd;border:1px solid #e0c97a;padding:.4rem .6rem}
    nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
    .workload-summary{margin:.25rem 0 1rem}
    figure.chart{margin:1rem 0 2rem;break-inside:avoid}
    .machines{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,26rem),1fr));\
    gap:0 1.5rem}
    figcaption p{margin:.15rem 0 .5rem;font-size:.9em}
    .plot-area{max-width:560px}
    .plot-area svg{display:block;width:100%;height:auto;font-size:12px;\
    font-family:system-ui,"DejaVu Sans",sans-serif}
    ul.legend{display:flex;flex-wrap:wrap;gap:.2rem 1rem;padding:0;margin:.4rem 0;\
    list-style:none;font-size:.9em}
    ul.legend li{display:flex;align-items:center;gap:.35rem;min-width:0;max-width:100%}
    .swatch{display:inline-block;flex:none;width:1.6rem;border-top:3px solid var(--c)}
    .reference .swatch{border-top-style:dashed}
    .remark{color:var(--muted)}
    .readout{margin:.25rem 0;padding:.25rem .5rem;background:#f3f6fa;border-left:3px solid #1f77b4}
    .table-wrap{overflow-x:auto;max-width:100%}
    table{border-collapse:collapse;font-size:.85em;font-variant-numeric:tabular-nums}
    caption{text-align:left;color:var(--muted);padding:.25rem 0}
    th,td{border:1px solid var(--rule);padding:.2rem .4rem;vertical-align:top}
    thead th{background:#f5f5f5;white-space:nowrap}
    table.values td{text-align:right;white-space:nowrap}
    table.values tbody th{text-align:left;white-space:nowrap;font-weight:500}
    table.values.trend th{white-space:normal}
    table.values .ratio{display:block;color:var(--muted);font-size:.9em}
    table.values td.status{color:var(--muted);font-style:italic}
    table.values td.failed,table.values td.invalid{color:#a30000}
    .name{overflow-wrap:anywhere;min-width:0}
    ol.notes{font-size:.8em;margin:.25rem 0;padding-left:1.5rem}
    .verdict-counts,.outcome-legend{display:flex;flex-wrap:wrap;gap:.3rem;padding:0;\
    list-style:none}
    .verdict-counts li,.outcome-legend li{padding:.1rem .5rem;border:1px solid var(--rule)}
    tr.regression,li.regression{background:var(--fail)}
    tr.improvement,li.improvement{background:var(--pass)}
    tr.capped-in-candidate,li.capped-in-candidate{background:var(--timeout)}
    tr.inconclusive,li.inconclusive{background:#fbf7e3}
    table.changes td.change{text-align:right;white-space:nowrap}
    table.changes tbody th{text-align:left;font-weight:500}
    table.matrix{font-size:.8em}
    table.matrix thead th.backend{vertical-align:bottom;padding:.3rem .2rem}
    table.matrix thead th.backend span{writing-mode:vertical-rl;transform:rotate(180deg);\
    white-space:nowrap;display:inline-block}
    table.matrix tbody th{text-align:left;font-weight:400;min-width:10rem;max-width:20rem;\
    position:sticky;left:0;background:var(--paper);z-index:1}
    table.matrix .id{font-weight:600;white-space:nowrap}
    table.matrix .level{display:block;color:var(--muted);font-size:.9em;overflow-wrap:anywhere}
    td.outcome{min-width:3.8rem;max-width:14rem}
    td.outcome summary{cursor:pointer}
    td.outcome details p{margin:.25rem 0 0;min-width:12rem;white-space:normal;\
    overflow-wrap:anywhere}
    .pass{background:var(--pass)}
    .fail{background:var(--fail);font-weight:600}
    .probe-observed{background:var(--probe)}
    .probe-not-observed{background:var(--probe-no)}
    .probe-not-seen-violated{background:var(--probe-unrefuted)}
    .not-applicable{background:var(--na);color:var(--muted)}
    .untested{background:var(--untested);color:var(--muted)}
    .crashed{background:var(--crashed);font-weight:600}
    .timed-out{background:var(--timeout);font-weight:600}
    .missing{background:#fff;color:var(--muted)}
    .matrix-tools button{font:inherit;padding:.2rem .6rem}
    footer{color:var(--muted);font-size:.85em;margin:2rem auto}
    @media (max-width:40rem){
    body{font-size:14px}
    h1{font-size:1.25rem}
    table.matrix tbody th{min-width:8rem}
    }
    @media print{
    body{font-size:10pt}
    nav,.readout,.matrix-tools,footer{display:none}
    header,main{max-width:none;padding:0}
    h2,.workload-summary,figcaption{break-after:avoid}
    td,li{print-color-adjust:exact;-webkit-print-color-adjust:exact}
    figure.chart,tr{break-inside:avoid}
    .table-wrap{overflow:visible}
    .plot-area{max-width:16cm}
    a{color:inherit;text-decoration:none}
    }
    """
}
