"""Sign-in with OpenID Connect in a real browser: "Sign in with …" on the sign-in page, the
provider's own sign-in form, back to the library signed in; Sign out goes on to the provider."""
import re


def test_it_signs_in_through_the_providers_form_and_signs_out_there_too(serve, provider, desktop):
    srv = serve(OIDC_SIGNUP="1")
    page = desktop.new_page()
    page.goto(srv.url + "/login/")
    page.click("text=Sign in with Test ID")
    page.wait_for_url(re.compile(re.escape(provider.url) + r"/authorize\?"))
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", "provider pass")
    page.click("#provider-sign-in")
    page.wait_for_url(srv.url + "/")
    assert page.locator(".who").inner_text() == "sam"

    page.click("text=Sign out")
    page.wait_for_url(re.compile(re.escape(provider.url) + r"/end-session\?"))
    assert page.locator("h1").inner_text() == "Signed out at the provider"
    assert provider.ended[-1]["post_logout_redirect_uri"] == srv.url + "/login/"
    assert provider.ended[-1]["id_token_hint"].count(".") == 2
    page.goto(srv.url + "/")
    page.wait_for_url(re.compile(r"/login/"))
