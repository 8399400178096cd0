import bastion


def test_public_api_is_exactly_the_curated_sorted_list() -> None:
    assert bastion.__all__ == sorted(bastion.__all__, key=lambda n: (not n.isupper(), n))
    assert set(bastion.__all__) == {
        "MARKER_BLOCKED",
        "MARKER_DENIED",
        "BastionError",
        "CallError",
        "Configuration",
        "Decision",
        "Effect",
        "Evaluation",
        "Family",
        "Gate",
        "GateOptions",
        "Gatekeeper",
        "Policy",
        "PolicyError",
        "Reason",
        "StoreError",
        "ToolCall",
        "build_gate",
        "load_configuration",
        "load_policy",
        "load_policy_text",
        "open_gatekeeper",
    }


def test_every_public_name_is_importable_from_the_package() -> None:
    for name in bastion.__all__:
        assert getattr(bastion, name) is not None
