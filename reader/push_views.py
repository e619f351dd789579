"""Web Push devices as JSON (Settings → Notifications, static/js/settings-push.js): the server's
public key and the user's devices, subscribing and removing one, and a test push to one."""
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from mangacircus.http import api

from . import push_devices, webpush


def _device_id(data):
    sid = data.get("id")
    if not isinstance(sid, str) or not sid:
        raise Invalid(_("id must name one of your devices"))
    return sid


@api()
def devices(request):
    return {"publicKey": webpush.public_key(), "devices": push_devices.devices(request.account["name"])}


@api(methods=("POST",))
def subscribe(request):
    label = request.data.get("label", "")
    if not isinstance(label, str):
        raise Invalid(_("label must be a string"))
    subscription = push_devices.checked(request.data.get("subscription"))
    return {"device": push_devices.subscribe(request.account["name"], subscription, label)}


@api(methods=("POST",))
def unsubscribe(request):
    push_devices.unsubscribe(request.account["name"], _device_id(request.data))
    return {}


@api(methods=("POST",))
def test(request):
    delivered, what = webpush.send_test(request.account["name"], _device_id(request.data))
    return {"delivered": delivered, "message": what}
