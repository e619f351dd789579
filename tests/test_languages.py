"""mangacircus/languages.py: the LANGUAGE server default and the browser's Accept-Language, mapped to
the offered languages."""
import pytest

from mangacircus import languages


@pytest.mark.parametrize("value, expected", [
    ("ja", ("ja", True)),
    ("ja-JP", ("ja", True)),
    ("ja_JP.UTF-8", ("ja", True)),
    ("ar_EG:en", ("ar", True)),
    ("tlh:ja", ("ja", True)),  # Klingon is not offered: the next one in the list wins
    ("pt_BR.UTF-8", ("pt-br", True)),
    ("zh_TW", ("zh-hant", True)),
    ("en_US:en", ("en", True)),
    ("", ("en", True)),  # unset: English, nothing to warn about
    ("xx", ("en", False)),
    ("tlh", ("en", False)),
])
def test_it_reads_language_as_posix_systems_set_it(value, expected):
    assert languages.from_environment(value) == expected


def test_it_maps_regions_and_scripts_to_the_language_they_name():
    every = tuple(languages.NAMES)
    assert languages.match("pt_BR", every) == "pt-br"
    assert languages.match("pt-PT", every) == "pt-br"
    assert languages.match("zh_CN", every) == "zh-hans"
    assert languages.match("zh-TW", every) == "zh-hant"
    assert languages.match("zh-Hant-HK", every) == "zh-hant"
    assert languages.match("zh", every) == "zh-hans"
    assert languages.match("ko-KR", every) == "ko"
    assert languages.match("tlh", every) is None


def test_it_takes_the_browsers_most_wanted_offered_language():
    assert languages.from_header("fr-FR,fr;q=0.9,ar;q=0.8,en;q=0.5") == "fr"
    assert languages.from_header("tlh,eo;q=0.9,ar;q=0.8,en;q=0.5") == "ar"
    assert languages.from_header("en;q=0.2, ja-JP") == "ja"
    assert languages.from_header("tlh, *;q=0.1") is None
    assert languages.from_header("zh-TW,zh;q=0.9") == "zh-hant"
    assert languages.from_header("") is None
    assert languages.from_header(None) is None


def test_it_offers_each_language_under_its_own_name():
    names = dict(languages.choices())
    assert names["en"] == "English" and names["ja"] == "日本語" and names["ar"] == "العربية"
    assert list(names) == list(languages.OFFERED) and set(languages.OFFERED) <= set(languages.NAMES)
    assert languages.RTL <= set(languages.OFFERED)
