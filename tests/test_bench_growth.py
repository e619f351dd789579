"""bench/growth.py: the growth table from the rows kept by runs of two presets."""
from bench import growth
from bench.report import Row


def test_it_gives_each_row_its_exponents_between_the_smallest_and_the_largest_run(tmp_path, capsys):
    small, big = tmp_path / "small", tmp_path / "big"
    small.mkdir()
    big.mkdir()
    growth.save(big, "big", 1000, [Row("full scan", value=50.0, ratio=0.7), Row("page p50", value=2.0, ratio=1.0),
                                   Row("not measured")])
    growth.save(small, "small", 100, [Row("full scan", value=5.0, ratio=0.7), Row("page p50", value=2.0, ratio=2.0)])
    assert growth.main([str(big), str(small)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("row"))
    assert header.index("small (100 p.)") < header.index("big (1,000 p.)")  # smallest first
    scan = next(line for line in lines if line.startswith("full scan"))
    assert scan.split()[-2:] == ["+1.00", "+0.00"]  # linear, exactly as its floor
    page = next(line for line in lines if line.startswith("page p50"))
    assert page.split()[-2:] == ["+0.00", "-0.30"]  # flat; its ratio halves over ten times the pages
    assert not any(line.startswith("not measured") for line in lines)


def test_it_says_what_it_needs_with_a_single_run(tmp_path, capsys):
    growth.save(tmp_path, "tiny", 100, [Row("full scan", value=5.0, ratio=0.7)])
    assert growth.main([str(tmp_path)]) == 1
    assert "needs runs of two presets of different sizes" in capsys.readouterr().err
