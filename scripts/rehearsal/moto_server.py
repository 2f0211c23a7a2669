"""moto_server for the deploy rehearsal (scripts/rehearse-deploy.ts), with the CloudFormation
resource types the payment gateway's templates reference but moto 5.2 cannot create.

Usage: python3 scripts/rehearsal/moto_server.py -H 127.0.0.1 -p PORT   (the arguments of moto_server)

Why: moto's CloudFormation skips a type it has no model for and reports it created, but a reference
to it resolves to nothing. `Ref` of a skipped AWS::SecretsManager::Secret vanishes from a policy
statement, which moto's IAM then refuses ("MalformedPolicyDocument: Policy statement must contain
resources"), and `Fn::GetAtt` of a skipped CloudFront distribution fails the stack. AWS resolves both.
So this server adds a model for each referenced type (the template deployed stays the real one):
- AWS::SecretsManager::Secret is created in moto's Secrets Manager (GenerateSecretString honoured),
  its Ref is the secret's ARN;
- the API Gateway HTTP API, its authorizer and integrations, the CloudFront distribution, function
  and response headers policy are stand-ins: an identifier in AWS's format for `Ref` and for each
  attribute AWS documents for `Fn::GetAtt` (any other attribute fails the stack, as on AWS). Nothing
  behind them exists or is checked.
Every other type moto lacks (alarms, routes, the stage, queue and topic policies...) stays skipped.
It also answers `Fn::GetAtt [NestedStack, Outputs.Name]` (moto's nested stack has no attributes: a
parent reading a nested stack's output crashed ExecuteChangeSet with a 500, which the CDK CLI retried
into a stack reported CREATE_COMPLETE with most of its resources never created), and gives a stack
deployed through a change set (as `cdk deploy` does) its template's outputs.
Tested with moto 5.2.1 (the CI image's); the models follow moto's CloudFormationModel interface.
"""

import json
import random
import string
import sys
import uuid
from typing import Any

from moto.cloudformation.exceptions import UnformattedGetAttTemplateException
from moto.cloudformation.models import ChangeSet, Stack
from moto.core.common_models import CloudFormationModel
from moto.secretsmanager.models import secretsmanager_backends


def _token(length: int, alphabet: str = string.ascii_lowercase + string.digits) -> str:
    return "".join(random.choice(alphabet) for _ in range(length))


class _Referenced:
    """A created resource: its `Ref` value and the attributes `Fn::GetAtt` may read. moto finds models
    among CloudFormationModel's direct subclasses, so each model below derives from both."""

    ATTRIBUTES: tuple[str, ...] = ()

    def __init__(self, ref: str, attributes: dict[str, str]):
        self.ref = ref
        self.attributes = attributes

    @property
    def physical_resource_id(self) -> str:
        return self.ref

    @staticmethod
    def cloudformation_name_type() -> str:
        return ""

    @classmethod
    def has_cfn_attr(cls, attr: str) -> bool:
        return attr in cls.ATTRIBUTES

    def get_cfn_attribute(self, attribute_name: str) -> Any:
        if attribute_name not in self.attributes:
            raise UnformattedGetAttTemplateException()
        return self.attributes[attribute_name]

    @classmethod
    def update_from_cloudformation_json(cls, original_resource: Any, new_resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str) -> Any:
        return original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str) -> None:
        return None

    def is_created(self) -> bool:
        return True


class Secret(_Referenced, CloudFormationModel):
    # moto files every model under the service named by the second part of its module.
    __module__ = "moto.secretsmanager.rehearsal"
    ATTRIBUTES = ("Id",)

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::SecretsManager::Secret"

    @staticmethod
    def cloudformation_name_type() -> str:
        return "Name"

    @classmethod
    def create_from_cloudformation_json(cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **kwargs: Any) -> "Secret":
        props = cloudformation_json.get("Properties", {})
        backend = secretsmanager_backends[account_id][region_name]
        secret_string = props.get("SecretString")
        generate = props.get("GenerateSecretString")
        if secret_string is None and generate is not None:
            password = json.loads(
                backend.get_random_password(
                    password_length=int(generate.get("PasswordLength", 32)),
                    exclude_characters=generate.get("ExcludeCharacters", ""),
                    exclude_numbers=bool(generate.get("ExcludeNumbers", False)),
                    exclude_punctuation=bool(generate.get("ExcludePunctuation", False)),
                    exclude_uppercase=bool(generate.get("ExcludeUppercase", False)),
                    exclude_lowercase=bool(generate.get("ExcludeLowercase", False)),
                    include_space=bool(generate.get("IncludeSpace", False)),
                    require_each_included_type=bool(generate.get("RequireEachIncludedType", True)),
                )
            )["RandomPassword"]
            if "GenerateStringKey" in generate:
                document = json.loads(generate.get("SecretStringTemplate", "{}"))
                document[generate["GenerateStringKey"]] = password
                secret_string = json.dumps(document)
            else:
                secret_string = password
        created = backend.create_secret(
            name=resource_name,
            secret_string=secret_string,
            secret_binary=None,
            description=props.get("Description"),
            tags=props.get("Tags"),
            kms_key_id=props.get("KmsKeyId"),
            client_request_token=None,
            replica_regions=[],
            force_overwrite=False,
        )
        arn = (json.loads(created) if isinstance(created, str) else created)["ARN"]
        return cls(arn, {"Id": arn})


def _stand_in(cfn_type: str, make: Any) -> type:
    """A model whose `make(account, region, logical_id, props)` gives (Ref value, attributes)."""

    class StandIn(_Referenced, CloudFormationModel):
        __module__ = "moto.cloudformation.rehearsal"

        @staticmethod
        def cloudformation_type() -> str:
            return cfn_type

        @classmethod
        def create_from_cloudformation_json(cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **kwargs: Any) -> "StandIn":
            ref, attributes = make(account_id, region_name, kwargs.get("LogicalId", resource_name), cloudformation_json.get("Properties", {}))
            return cls(ref, attributes)

    StandIn.ATTRIBUTES = tuple(make("123456789012", "us-east-1", "Probe", {})[1])
    StandIn.__name__ = StandIn.__qualname__ = cfn_type.replace("AWS::", "").replace("::", "")
    return StandIn


def _http_api(account: str, region: str, logical_id: str, props: dict[str, Any]) -> tuple[str, dict[str, str]]:
    api_id = _token(10)
    return api_id, {"ApiId": api_id, "ApiEndpoint": f"https://{api_id}.execute-api.{region}.amazonaws.com"}


def _api_child(attribute: str) -> Any:
    def make(account: str, region: str, logical_id: str, props: dict[str, Any]) -> tuple[str, dict[str, str]]:
        child_id = _token(7)
        return child_id, {attribute: child_id}

    return make


def _distribution(account: str, region: str, logical_id: str, props: dict[str, Any]) -> tuple[str, dict[str, str]]:
    distribution_id = "E" + _token(13, string.ascii_uppercase + string.digits)
    return distribution_id, {"Id": distribution_id, "DomainName": f"d{_token(13)}.cloudfront.net"}


def _cloudfront_function(account: str, region: str, logical_id: str, props: dict[str, Any]) -> tuple[str, dict[str, str]]:
    arn = f"arn:aws:cloudfront::{account}:function/{props.get('Name', logical_id)}"
    return arn, {"FunctionARN": arn, "FunctionMetadata.FunctionARN": arn, "Stage": "LIVE"}


def _response_headers_policy(account: str, region: str, logical_id: str, props: dict[str, Any]) -> tuple[str, dict[str, str]]:
    policy_id = str(uuid.uuid4())
    return policy_id, {"Id": policy_id, "LastModifiedTime": "2026-01-01T00:00:00Z"}


STAND_INS = [
    _stand_in("AWS::ApiGatewayV2::Api", _http_api),
    _stand_in("AWS::ApiGatewayV2::Authorizer", _api_child("AuthorizerId")),
    _stand_in("AWS::ApiGatewayV2::Integration", _api_child("IntegrationId")),
    _stand_in("AWS::CloudFront::Distribution", _distribution),
    _stand_in("AWS::CloudFront::Function", _cloudfront_function),
    _stand_in("AWS::CloudFront::ResponseHeadersPolicy", _response_headers_policy),
]


def _nested_stack_attribute(self: Stack, attribute_name: str) -> Any:
    """`Fn::GetAtt [NestedStack, Outputs.Name]`, as AWS answers it (moto 5.2's Stack has no attributes)."""
    prefix = "Outputs."
    if attribute_name.startswith(prefix) and attribute_name[len(prefix) :] in self.output_map.outputs:
        output = self.output_map[attribute_name[len(prefix) :]]
        if output is not None:
            return output.value
    raise UnformattedGetAttTemplateException()


Stack.get_cfn_attribute = _nested_stack_attribute  # type: ignore[attr-defined]

_apply_change_set = ChangeSet.apply


def _apply_with_outputs(self: ChangeSet) -> None:
    """A change set's stack answers DescribeStacks with the outputs of the template it executed (moto 5.2
    keeps the outputs of the empty template the stack was created with, so a deploy shows none)."""
    _apply_change_set(self)
    self.stack.template = self.template
    self.stack._parse_template()
    self.stack.output_map = self.stack._create_output_map()


ChangeSet.apply = _apply_with_outputs  # type: ignore[method-assign]


if __name__ == "__main__":
    from moto.server import main

    main(sys.argv[1:])
