"""{% trackers_card %}: the Trackers card of Settings → User → Apps (templates/settings/apps.html),
rendered by this app so the Apps page needs nothing of it but the tag."""
from django import template

from trackers import views

register = template.Library()


@register.inclusion_tag("trackers/card.html", takes_context=True)
def trackers_card(context):
    request = context["request"]
    return {"trackers": views.overview(request.account["name"]), "csrf_token": context.get("csrf_token"),
            "request": request}
