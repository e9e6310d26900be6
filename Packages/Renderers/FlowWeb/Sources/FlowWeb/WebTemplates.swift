/// The page templates (Mustache: `{{value}}` escapes every character HTML gives a meaning to).
///
/// One form holds the whole screen, so any button sends every field with it. Its first button is
/// a copy of the primary action, out of sight: Enter in a field sends the form with it, as Enter
/// does on the terminal.
enum WebTemplates {
    static let page = """
    <!DOCTYPE html>
    <html lang="en" data-theme="{{theme}}">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    {{#refresh}}<meta http-equiv="refresh" content="{{refresh}}">{{/refresh}}
    <title>{{documentTitle}} · Flows</title>
    <link rel="stylesheet" href="/web/style.css">
    <script src="/web/flows.js" defer></script>
    </head>
    <body>
    <form method="post" action="/" id="screen" data-screen="{{screenID}}" novalidate>
    <input type="hidden" name="csrf" value="{{csrf}}">
    <input type="hidden" name="version" value="{{version}}">
    <button type="submit" name="do" value="{{defaultAction}}" class="default" tabindex="-1" aria-hidden="true">Send</button>
    <header>
    {{#hasCrumbs}}<nav aria-label="Where you are" class="crumbs"><ol>{{#crumbs}}<li>{{.}}</li>{{/crumbs}}</ol></nav>{{/hasCrumbs}}
    {{#hasTabs}}<nav aria-label="Tabs" class="tabs"><ul>{{#tabs}}<li><button type="submit" name="do" value="{{id}}" formnovalidate{{#current}} aria-current="page"{{/current}}>{{label}}</button></li>{{/tabs}}</ul></nav>{{/hasTabs}}
    </header>
    <main>
    <h1>{{title}}</h1>
    <div id="status" class="status" role="status" aria-live="polite">{{#pageNotice}}<p class="notice page-notice">{{pageNotice}}</p>{{/pageNotice}}{{#status}}{{#busy}}<p class="busy">{{busy}}…</p>{{/busy}}{{#notice}}<p class="notice">{{notice}}</p>{{/notice}}{{/status}}</div>
    {{#status}}{{#error}}<p class="error" role="alert" id="screen-error">{{error}}</p>{{/error}}{{/status}}
    {{#paragraphs}}<p class="text">{{#runs}}{{> run}}{{/runs}}</p>
    {{/paragraphs}}
    {{#figures}}<figure>{{#image}}<img src="{{source}}" alt="{{alternative}}">{{/image}}{{#badge}}<span class="badge colour-{{colour}}" role="img" aria-label="Avatar {{initials}}">{{initials}}</span>{{/badge}}{{#failed}}<p class="error">{{failed}}</p>{{/failed}}</figure>
    {{/figures}}
    {{#fields}}
    <div class="field{{#error}} invalid{{/error}}">
    {{#text}}<label for="{{domID}}">{{label}}{{#optional}} <span class="optional">(optional)</span>{{/optional}}</label>
    <span class="input"><input id="{{domID}}" name="{{name}}" type="{{type}}" value="{{value}}"{{#inputMode}} inputmode="{{inputMode}}"{{/inputMode}}{{#autocomplete}} autocomplete="{{autocomplete}}"{{/autocomplete}}{{#pattern}} pattern="{{pattern}}"{{/pattern}}{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}{{#error}} aria-invalid="true"{{/error}}>{{#suffix}} <span class="suffix">{{suffix}}</span>{{/suffix}}</span>
    {{/text}}
    {{#choice}}<fieldset id="{{domID}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}><legend>{{label}}</legend>
    <div class="options">{{#options}}<button type="submit" name="{{name}}" value="{{id}}" formnovalidate aria-pressed="{{#selected}}true{{/selected}}{{^selected}}false{{/selected}}">{{#label}}{{#runs}}{{> run}}{{/runs}}{{/label}}{{#detail}} <span class="detail">{{detail}}</span>{{/detail}}</button>{{/options}}</div>
    </fieldset>
    {{/choice}}
    {{#confirm}}<fieldset id="{{domID}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}><legend>{{label}}</legend>
    <div class="options">{{#options}}<button type="submit" name="{{name}}" value="{{id}}" formnovalidate aria-pressed="{{#selected}}true{{/selected}}{{^selected}}false{{/selected}}">{{#label}}{{#runs}}{{> run}}{{/runs}}{{/label}}</button>{{/options}}</div>
    </fieldset>
    {{/confirm}}
    {{#select}}<label for="{{domID}}">{{label}}</label>
    <select id="{{domID}}" name="{{name}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}>{{#none}}<option value="" selected>Choose…</option>{{/none}}{{#options}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{#label}}{{#runs}}{{text}}{{/runs}}{{/label}}{{#detail}} ({{detail}}){{/detail}}</option>{{/options}}</select>
    {{/select}}
    {{#multi}}<fieldset id="{{domID}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}><legend>{{label}}</legend>
    <input type="hidden" name="present" value="{{name}}">
    <div class="options">{{#options}}<label class="check"><input type="checkbox" name="{{name}}" value="{{id}}"{{#selected}} checked{{/selected}}> {{#label}}{{#runs}}{{> run}}{{/runs}}{{/label}}{{#detail}} <span class="detail">{{detail}}</span>{{/detail}}</label>{{/options}}</div>
    </fieldset>
    {{/multi}}
    {{#table}}<fieldset id="{{domID}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}><legend>{{label}} ({{unit}})</legend>
    <table><tbody>{{#rows}}<tr><th scope="row"><label for="{{domID}}">{{label}}</label></th><td><input id="{{domID}}" name="{{name}}" value="{{value}}" inputmode="decimal" autocomplete="off" pattern="{{pattern}}"></td><td id="{{domID}}-note" class="note">{{#note}}{{note}}{{/note}}</td></tr>{{/rows}}</tbody></table>
    </fieldset>
    {{/table}}
    {{#hint}}<p class="hint" id="{{hintID}}">{{hint}}</p>{{/hint}}
    {{#error}}<p class="field-error" id="{{errorID}}">{{error}}</p>{{/error}}
    </div>
    {{/fields}}
    <div id="footer" aria-live="polite">{{#footer}}<p class="footer">{{#runs}}{{> run}}{{/runs}}</p>{{/footer}}</div>
    <div class="actions">{{#actions}}<button type="submit" name="do" value="{{id}}"{{#primary}} class="primary"{{/primary}}{{#leaves}} class="leave" formnovalidate{{/leaves}}>{{label}}</button>{{/actions}}</div>
    </main>
    </form>
    </body>
    </html>

    """

    /// One run of a text: plain, or a phrase that says which way money goes, marked by an arrow
    /// and a word for screen readers besides its colour.
    static let run = """
    {{#owed}}<strong class="owed"><span class="visually-hidden">(owed to you) </span>{{text}}</strong>{{/owed}}{{#owing}}<strong class="owing"><span class="visually-hidden">(you owe) </span>{{text}}</strong>{{/owing}}{{^owed}}{{^owing}}{{text}}{{/owing}}{{/owed}}
    """

    static let message = """
    <!DOCTYPE html>
    <html lang="en" data-theme="auto">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}} · Flows</title>
    <link rel="stylesheet" href="/web/style.css">
    </head>
    <body>
    <main>
    <h1>{{title}}</h1>
    <p role="alert">{{text}}</p>
    <p><a href="/">Back to Flows</a></p>
    </main>
    </body>
    </html>

    """
}
